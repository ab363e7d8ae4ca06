/**
 * Redaction, table by table: each encoding an answer can carry a secret in (plain, JSON escapes in
 * any mix, percent-encoding in either case, HTML references, base64 and base64url whole or inside
 * longer text, hex), a secret across the edge of the windows a large body is read in, what is left
 * alone (no secret, short secrets in base64 noise), and the URLs and targets as shown.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { REDACTED, Redactor, redactBytes, redactText, shownUrl, shownUrlText } from '../src/http/redact.js';
import { sentSecrets } from '../src/http/sent-headers.js';
import { shownTarget } from '../src/run/target-url.js';

const TOKEN = 'sk-live+83ab/Zq=TOKEN';

const escaped = (text: string, every = 1): string =>
  [...text].map((char, index) => (index % every === 0 ? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}` : char)).join('');
const percent = (text: string): string => [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
const base64 = (text: string): string => Buffer.from(text).toString('base64');

describe('a secret in any encoding an answer can carry is redacted', () => {
  const forms: [string, string][] = [
    ['plain', TOKEN],
    ['JSON escapes', escaped(TOKEN)],
    ['JSON escapes, every other character', escaped(TOKEN, 2)],
    ['JSON escapes, upper-case hex', escaped(TOKEN).toUpperCase().replace(/\\U/g, '\\u')],
    ['an escaped slash', TOKEN.replace('/', '\\/')],
    ['percent-encoded, lower case', percent(TOKEN)],
    ['percent-encoded, upper case', percent(TOKEN).toUpperCase()],
    ['encodeURIComponent (only +, / and = encoded)', encodeURIComponent(TOKEN)],
    ['HTML decimal references', [...TOKEN].map((char) => `&#${char.charCodeAt(0)};`).join('')],
    ['HTML hex references, no semicolons', [...TOKEN].map((char) => `&#x${char.charCodeAt(0).toString(16)}`).join('')],
    ['HTML named references', TOKEN.replace('+', '&plus;').replace('/', '&sol;').replace('=', '&equals;')],
    ['base64', base64(TOKEN)],
    ['base64url', Buffer.from(TOKEN).toString('base64url')],
    ['base64 of the header value', base64(`Bearer ${TOKEN}`)],
    ['base64 of the header line', base64(`authorization: Bearer ${TOKEN}`)],
    ['base64 of a JSON document holding it', base64(JSON.stringify({ headers: { authorization: `Bearer ${TOKEN}` } }))],
    ['base64 in JSON, its slashes escaped', base64(`xy${TOKEN}`).replace(/\//g, '\\/')],
    ['hex', Buffer.from(TOKEN).toString('hex')],
    ['HEX', Buffer.from(TOKEN).toString('hex').toUpperCase()],
  ];
  for (const [encoding, form] of forms) {
    test(encoding, () => {
      const body = Buffer.from(`{"text":"you sent ${form} to us"}`);
      const cleaned = redactBytes(body, [TOKEN]).toString('utf8');
      assert.ok(cleaned.startsWith('{"text":"you sent ') && cleaned.endsWith(' to us"}'), cleaned);
      assert.ok(cleaned.includes(REDACTED), cleaned);
      assert.ok(!cleaned.includes(form), cleaned);
      // What the body decodes to holds no trace of it either.
      assert.ok(!(JSON.parse(cleaned) as { text: string }).text.includes(TOKEN));
    });
  }

  test("the secret's base64 inside longer base64 text leaves no group that carries its bits", () => {
    for (const prefix of ['', 'a', 'ab', 'abc']) {
      const encoded = base64(`${prefix}${TOKEN}!`);
      const cleaned = redactText(encoded, TOKEN);
      const left = cleaned.split(REDACTED).join('');
      // At most the groups of what surrounds the secret are left: decoded, they hold none of its letters past the first.
      assert.ok(!Buffer.from(left, 'base64').toString('latin1').includes(TOKEN.slice(0, 3)), `${prefix}: ${cleaned}`);
    }
  });

  test('a secret written in escapes across the edge of two 1 MiB windows of a large body', () => {
    for (const shift of [0, 5, 60, 125]) {
      const at = 1024 * 1024 - shift;
      const body = Buffer.concat([Buffer.alloc(at, 'x'), Buffer.from(escaped(TOKEN)), Buffer.alloc(1000, 'y')]);
      const cleaned = redactBytes(body, TOKEN);
      assert.equal(cleaned.length, body.length - escaped(TOKEN).length + REDACTED.length, `shift ${shift}`);
      assert.equal(cleaned.subarray(at, at + REDACTED.length).toString(), REDACTED);
    }
  });

  test('a Basic header value: the value, its credentials, the user:password they decode to, the password', () => {
    const value = `Basic ${base64('agent:b4sic-pa55')}`;
    const redactor = new Redactor(sentSecrets({ headers: [{ name: 'authorization', value, secret: true }] }));
    for (const echoed of [value, base64('agent:b4sic-pa55'), 'agent:b4sic-pa55', 'password b4sic-pa55', percent('b4sic-pa55')]) {
      const cleaned = redactor.text(`you sent ${echoed}.`);
      assert.ok(cleaned.includes(REDACTED) && !cleaned.includes('b4sic') && !cleaned.includes(base64('agent:b4sic-pa55')), cleaned);
    }
  });
});

describe('what holds no secret is left as it came', () => {
  test('an answer without the secret: the same bytes, the same buffer', () => {
    const body = Buffer.from('{"replies":[{"type":"message","text":"caf\\u00e9 50% off &amp; more"}]}');
    assert.equal(redactBytes(body, [TOKEN]), body);
  });

  test('no secret: nothing looked for', () => {
    const body = Buffer.from('anything at all');
    assert.equal(new Redactor([]).bytes(body), body);
    assert.equal(new Redactor(['']).text('anything'), 'anything');
  });

  test('a short secret is looked for plain only: its base64 and hex are too likely in a photo to be cut out of it', () => {
    const photo = Buffer.from(`${base64('KEY')}${Buffer.from('KEY').toString('hex')}`);
    assert.equal(redactBytes(photo, ['KEY']), photo);
    assert.equal(redactText('the KEY', ['KEY']), `the ${REDACTED}`);
  });

  test('an escaped backslash before u is not an escape', () => {
    const text = '{"text":"\\\\u0073k-live+83ab/Zq=TOKEN"}';
    assert.equal((JSON.parse(text) as { text: string }).text, '\\u0073k-live+83ab/Zq=TOKEN');
    assert.equal(redactText(text, [TOKEN]), text);
  });
});

describe('URLs and targets as shown', () => {
  test('shownUrl: the query values and the credentials redacted, the names kept', () => {
    assert.equal(shownUrl(new URL('http://127.0.0.1:9/agent?code=K1&v=2')), 'http://127.0.0.1:9/agent?code=<redacted>&v=<redacted>');
    assert.equal(shownUrl(new URL('http://user:pw@127.0.0.1:9/agent')), 'http://<redacted>@127.0.0.1:9/agent');
    assert.equal(shownUrl(new URL('http://127.0.0.1:9/agent?SECRETKEY')), 'http://127.0.0.1:9/agent?<redacted>');
    assert.equal(shownUrl(new URL('https://agent.example/chat')), 'https://agent.example/chat');
  });

  test('shownUrlText and shownTarget: a URL as written, even one that does not parse', () => {
    assert.equal(shownUrlText('http://user:pw@[bad/agent?code=K1#frag'), 'http://<redacted>@[bad/agent?code=<redacted>#<redacted>');
    assert.equal(shownUrlText('user:pw@host:1/a?k'), '<redacted>@host:1/a?<redacted>');
    assert.equal(shownTarget('127.0.0.1:9/agent?code=K1'), 'http://127.0.0.1:9/agent?code=<redacted>');
    assert.equal(shownTarget('http://u:p@127.0.0.1:9/agent'), 'http://<redacted>@127.0.0.1:9/agent');
    assert.equal(shownTarget('http://[nope/agent?code=K1'), 'http://[nope/agent?code=<redacted>');
  });
});
