import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isPlainHttpUrl, isUri } from '../src/formats/schema-formats.js';

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
  test('the small expression accepts only what RFC 3986 (ajv-formats) accepts, and isUri agrees with ajv-formats everywhere', () => {
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
    ];
    let plain = 0;
    for (const text of [...known, ...strings(50_000)]) {
      const expected = rfc3986Uri(text);
      if (isPlainHttpUrl(text)) {
        plain++;
        assert.equal(expected, true, `${JSON.stringify(text)} passes the small expression but is not an RFC 3986 URI`);
      }
      assert.equal(isUri(text), expected, JSON.stringify(text));
    }
    assert.ok(plain > 1000, `${plain} strings took the short way`);
  });
});
