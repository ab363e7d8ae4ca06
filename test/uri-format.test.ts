import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isPlainHttpUrl, isUri, whyBrowsersRefuse } from '../src/formats/schema-formats.js';
import { validateAnswer } from '../src/index.js';
import { answer, message, shapes } from './answer-helpers.js';
import { bundledContract, loadContractFile } from '../src/contract/load-contract.js';
import { join } from 'node:path';
import { ROOT } from './helpers.js';

const rfc3986Uri = fullFormats.uri as (text: string) => boolean;

/** A small deterministic generator, so a failure can be replayed. */
function* strings(count: number): Generator<string> {
  let seed = 20261202;
  const next = (below: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % below;
  };
  const prefixes = [
    'http://',
    'https://',
    'HTTPS://',
    'hTtP://',
    'http:/',
    'http:',
    'ftp://',
    'mailto:',
    '//',
    '',
    'http://user@',
    'http://[::1]',
  ];
  const plain = 'abcXYZ019-._~/';
  const alphabet = 'abcXYZ019-._~!$&\'()*+,;=:@/?#%[] \t"<>\\^`{|}é😀';
  for (let i = 0; i < count; i++) {
    let text = prefixes[next(prefixes.length)]!;
    const length = next(24);
    for (let j = 0; j < length; j++) {
      // Percent escapes, good and bad, now and then.
      const roll = next(20);
      if (roll === 0) text += `%${'0aFg'[next(4)]}${'1bZ'[next(3)]}`;
      else if (roll < 18) text += plain[next(plain.length)];
      else text += alphabet[next(alphabet.length)];
    }
    yield text;
  }
}

describe('the uri format', () => {
  test('the small expression accepts only what RFC 3986 (ajv-formats) accepts, and isUri is RFC 3986 and new URL() together everywhere', () => {
    const known = [
      'https://example.com',
      'https://example.com/menu.png',
      'http://localhost:8080/a/b?c=d&e=f#top',
      'https://example.com/%E2%82%AC',
      'https://example.com/bad%zz',
      'https://exa mple.com',
      'https://example.com/<script>',
      'https://[::1]:3000/',
      'https://user:pass@example.com/',
      'https://example.com:/',
      'https://',
      'http://-/',
      'HTTPS://EXAMPLE.COM/PATH',
      'https://example.com:abc/',
      'https://example.com:65535/',
      'https://example.com:65536/',
      'http://1.2.3.256/',
    ];
    let plain = 0;
    let browsersRefuse = 0;
    for (const text of [...known, ...strings(50_000)]) {
      const rfc3986 = rfc3986Uri(text);
      if (isPlainHttpUrl(text)) {
        plain++;
        assert.equal(rfc3986, true, `${JSON.stringify(text)} passes the small expression but is not an RFC 3986 URI`);
      }
      if (rfc3986 && !URL.canParse(text)) browsersRefuse++;
      assert.equal(isUri(text), rfc3986 && URL.canParse(text), JSON.stringify(text));
    }
    assert.ok(browsersRefuse > 0, 'some strings RFC 3986 takes are refused by new URL()');
    assert.ok(plain > 1000, `${plain} strings took the short way`);
  });
});

describe('a URL must parse as RFC 3986 says and as the WHATWG URL parser does', () => {
  const cases: [string, boolean, string][] = [
    ['https://example.com/', true, 'no port'],
    ['https://example.com:0/', true, 'port 0'],
    ['https://example.com:443/menu', true, 'the default port'],
    ['https://example.com:65535/', true, 'port 65535, the largest'],
    ['https://example.com:65536/', false, 'port 65536, one over'],
    ['https://example.com:99999999999999999999/', false, 'a port of twenty digits'],
    ['https://example.com:abc/', false, 'a port of letters'],
    ['https://example.com:8o8o/', false, 'a port of digits and letters'],
    ['https://example.com:/', true, 'an empty port (both parsers take it)'],
    ['https://1.2.3.255/', true, 'an IPv4 address'],
    ['https://1.2.3.256/', false, 'an IPv4 part over 255'],
    ['https://[::1]:65535/', true, 'an IPv6 address with the largest port'],
    ['https://[::1]:65536/', false, 'an IPv6 address with a port one over'],
  ];
  for (const [url, valid, what] of cases) {
    it(`${url} is ${valid ? 'taken' : 'refused'} (${what})`, () => {
      assert.equal(isUri(url), valid);
      assert.equal(URL.canParse(url), valid, 'new URL() agrees');
    });
  }

  it("a link's or an image's url that browsers refuse is one schema error, whose hint says why", () => {
    for (const [url, why] of [
      ['https://example.com:65536/', 'its port "65536" is not a number from 0 to 65535'],
      ['https://example.com:abc/', 'its port "abc" is not a number from 0 to 65535'],
      ['https://1.2.3.256/', 'its host is not one a browser takes'],
    ] as const) {
      for (const [reply, path] of [
        [message({ text: 'Menu', link: { url, label: 'Open' } }), '/replies/0/link/url'],
        [message({ text: 'Menu', image: { url } }), '/replies/0/image/url'],
      ] as const) {
        const findings = validateAnswer(answer(reply), { channel: 'web' });
        assert.deepEqual(shapes(findings), [`schema error ${path}`], url);
        assert.match(findings[0]!.message, /that browsers parse; got/);
        assert.ok(findings[0]!.hint?.includes(why), `${url}: ${findings[0]!.hint}`);
      }
      assert.ok(whyBrowsersRefuse(url)?.startsWith(why));
    }
  });

  it('port 65535 passes in a link and an image on every platform that shows them', () => {
    const url = 'https://example.com:65535/menu.png';
    for (const channel of ['whatsapp', 'imessage', 'telegram', 'web']) {
      assert.deepEqual(shapes(validateAnswer(answer(message({ text: 'Menu', link: { url, label: 'Open' } })), { channel })), [], channel);
      assert.deepEqual(shapes(validateAnswer(answer(message({ text: 'Menu', image: { url } })), { channel })), [], channel);
    }
  });

  it('whyBrowsersRefuse says nothing of a URL both take or one RFC 3986 refuses already', () => {
    assert.equal(whyBrowsersRefuse('https://example.com:65535/'), undefined);
    assert.equal(whyBrowsersRefuse('https://exa mple.com/'), undefined);
  });
});

test('the validator compiled at build time and one compiled at run time from spec/ agree on URLs and emoji at their boundaries', async () => {
  const fromFile = await loadContractFile(join(ROOT, 'spec/agent-endpoint.openapi.yaml'));
  const answers = [
    ...['https://example.com:65535/', 'https://example.com:65536/', 'https://example.com:abc/'].flatMap((url) => [
      answer(message({ text: 'Menu', link: { url, label: 'Open' } })),
      answer(message({ text: 'Menu', image: { url } })),
    ]),
    ...['\u26A1\uFE0F', '\u26A1\uFE0E', '🏻', '👍\uFE0F🏽', '❤\uFE0F\uFE0F', '👍👍'].map((emoji) =>
      answer({ type: 'reaction', emoji, messageId: 'm1' }),
    ),
  ];
  for (const body of answers) {
    for (const channel of ['whatsapp', 'telegram']) {
      const bundled = validateAnswer(body, { channel, contract: bundledContract() });
      assert.deepEqual(validateAnswer(body, { channel, contract: fromFile }), bundled, JSON.stringify(body));
    }
  }
});
