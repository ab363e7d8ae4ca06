/**
 * The answer schema, rule by rule as the contract's "Answer body" states it: one finding per real
 * problem (exact count), rule `schema`, at the exact JSON pointer, with a "did you mean" hint for
 * a misspelt reply type or property.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Contract, Finding } from '../src/index.js';
import { bundledContract, validateAnswer } from '../src/index.js';
import { PLATFORMS, answer, message, shapes } from './answer-helpers.js';
import { ROOT } from './helpers.js';

/** Validates on web, where every message feature is shown, so only schema findings remain. */
function check(body: unknown): Finding[] {
  return validateAnswer(body, { channel: 'web' });
}

function expectFindings(body: unknown, expected: string[]): Finding[] {
  const findings = check(body);
  assert.deepEqual(shapes(findings), expected);
  for (const finding of findings) {
    assert.ok(finding.message.length > 0, 'a finding says what is wrong');
    assert.ok(finding.hint === null || finding.hint.length > 0, 'a hint is null or says something');
  }
  return findings;
}

const valid = (body: unknown) => expectFindings(body, []);
const one = (body: unknown, path: string) => expectFindings(body, [`schema error ${path}`])[0]!;

const list = (sections: unknown[]) => ({ button: 'Open', sections });
const IMAGE = { url: 'https://example.com/photo.jpg' };

describe('the answer as a whole', () => {
  it('{ "replies": [] } is valid on every channel, known or custom', () => {
    for (const channel of [...PLATFORMS, 'matrix']) {
      assert.deepEqual(validateAnswer({ replies: [] }, { channel }), [], channel);
    }
  });

  for (const [what, body] of [
    ['null', null],
    ['a number', 42],
    ['an array', []],
    ['a string', 'x'],
    ['a boolean', true],
  ] as const) {
    it(`a body that is ${what} gives one finding at ""`, () => {
      const finding = one(body, '');
      assert.match(finding.message, /expected an object/);
    });
  }

  it('says "got null" once for a null body', () => {
    assert.equal(one(null, '').message, 'expected an object, got null');
  });

  it('needs "replies"', () => {
    assert.match(one({}, '').message, /"replies"/);
  });

  it('"replies" must be an array', () => {
    one({ replies: {} }, '/replies');
    one({ replies: 'hi' }, '/replies');
  });

  it('no other top-level property', () => {
    one({ replies: [], debug: true }, '/debug');
  });

  it('each reply must be an object', () => {
    one(answer(null), '/replies/0');
    one(answer('hi there'), '/replies/0');
  });
});

describe('reply types', () => {
  it('an unknown type gets a did-you-mean for a close one', () => {
    const finding = one(answer({ type: 'mesage', text: 'hi' }), '/replies/0/type');
    assert.match(finding.message, /unknown reply type "mesage"/);
    assert.match(finding.hint ?? '', /"message"/);
    assert.match(one(answer({ type: 'reacton', emoji: '👍', messageId: 'm1' }), '/replies/0/type').hint ?? '', /"reaction"/);
    assert.match(one(answer({ type: 'templat', name: 'a', language: 'en' }), '/replies/0/type').hint ?? '', /"template"/);
  });

  it('an unknown type far from any gets no did-you-mean, but the message lists the types', () => {
    const finding = one(answer({ type: 'poll', text: 'hi' }), '/replies/0/type');
    assert.equal(finding.hint, null);
    assert.match(finding.message, /message, reaction, template/);
  });

  it('a missing type is one finding at /type', () => {
    const finding = one(answer({ text: 'hi' }), '/replies/0/type');
    assert.match(finding.message, /needs a "type"/);
  });

  it('a type that is not a string is one finding at /type', () => {
    one(answer({ type: 1, text: 'hi' }), '/replies/0/type');
  });
});

describe('unknown properties', () => {
  it('a misspelt property gets a did-you-mean', () => {
    const finding = one(answer(message({ text: 'Pick one', buttton: ['Yes'] })), '/replies/0/buttton');
    assert.match(finding.message, /unknown property "buttton"/);
    assert.match(finding.hint ?? '', /"buttons"/);
  });

  it('in nested objects too', () => {
    const finding = one(
      answer(message({ text: 'Pick one', buttons: [{ id: 'y', label: 'Yes', lable: 'Yes' }] })),
      '/replies/0/buttons/0/lable',
    );
    assert.match(finding.hint ?? '', /"label"/);
    one(
      answer(message({ text: 'Pick one', list: list([{ rows: [{ id: 'r', title: 'Row', desc: 'x' }] }]) })),
      '/replies/0/list/sections/0/rows/0/desc',
    );
    one(answer(message({ text: 'See', link: { url: 'https://example.com', label: 'Go', target: '_blank' } })), '/replies/0/link/target');
  });

  it('a property of another reply type is unknown on this one', () => {
    one(answer(message({ text: 'hi', emoji: '👍' })), '/replies/0/emoji');
    one(answer({ type: 'reaction', emoji: '👍', messageId: 'm1', text: 'nice' }), '/replies/0/text');
  });
});

describe('message: text or image', () => {
  it('text alone, image alone, or both are valid', () => {
    valid(answer(message({ text: 'hi' })));
    valid(answer(message({ image: IMAGE })));
    valid(answer(message({ text: 'A caption', image: IMAGE })));
    valid(answer(message({ text: '', image: IMAGE })));
  });

  it('neither is one finding at the reply', () => {
    assert.match(one(answer(message({})), '/replies/0').message, /non-empty text or an image/);
  });

  it('an empty text without an image is one finding at the text', () => {
    assert.match(one(answer(message({ text: '' })), '/replies/0/text').message, /non-empty text or an image/);
  });

  it('a text that is not a string is one finding at the text', () => {
    one(answer(message({ text: 5 })), '/replies/0/text');
  });
});

describe('message: at most one control, each with a body', () => {
  const buttons = ['Yes', 'No'];
  const aList = list([{ rows: [{ id: 'r1', title: 'One' }] }]);
  const link = { url: 'https://example.com/menu', label: 'Menu' };

  it('each control alone, with text, is valid', () => {
    valid(answer(message({ text: 'Pick one', buttons })));
    valid(answer(message({ text: 'Pick one', list: aList })));
    valid(answer(message({ text: 'Our menu', link })));
  });

  for (const [what, controls] of [
    ['buttons and a list', { buttons, list: aList }],
    ['buttons and a link', { buttons, link }],
    ['a list and a link', { list: aList, link }],
    ['all three', { buttons, list: aList, link }],
  ] as const) {
    it(`${what} is one finding at the reply`, () => {
      assert.match(one(answer(message({ text: 'Pick one', ...controls })), '/replies/0').message, /at most one of buttons, list and link/);
    });
  }

  for (const [control, value] of [
    ['buttons', buttons],
    ['list', aList],
    ['link', link],
  ] as const) {
    it(`${control} without text is one finding at the reply`, () => {
      // With an image where it combines, so that the missing body is the only problem.
      const body = control === 'list' ? message({ list: value }) : message({ [control]: value, image: IMAGE });
      assert.match(one(answer(body), '/replies/0').message, /non-empty text as the message body/);
    });
    it(`${control} with an empty text is one finding at the text`, () => {
      one(answer(message({ text: '', [control]: value })), '/replies/0/text');
    });
  }

  it('a list and an image do not combine', () => {
    assert.match(one(answer(message({ text: 'Pick one', list: aList, image: IMAGE })), '/replies/0').message, /list and an image/);
  });

  it('buttons or a link may come with an image', () => {
    valid(answer(message({ text: 'Pick one', buttons, image: IMAGE })));
    valid(answer(message({ text: 'Our menu', link, image: IMAGE })));
  });
});

describe('buttons', () => {
  it('are label strings or { id, label }', () => {
    valid(answer(message({ text: 'Pick one', buttons: ['Yes', { id: 'no', label: 'No' }] })));
  });

  it('need at least one', () => {
    one(answer(message({ text: 'Pick one', buttons: [] })), '/replies/0/buttons');
  });

  it('a button that is neither a string nor an object is one finding', () => {
    one(answer(message({ text: 'Pick one', buttons: [5] })), '/replies/0/buttons/0');
  });

  it('an empty label is one finding', () => {
    one(answer(message({ text: 'Pick one', buttons: [''] })), '/replies/0/buttons/0');
    one(answer(message({ text: 'Pick one', buttons: [{ id: 'y', label: '' }] })), '/replies/0/buttons/0/label');
  });

  it('{ id } without a label is one finding', () => {
    assert.match(one(answer(message({ text: 'Pick one', buttons: [{ id: 'y' }] })), '/replies/0/buttons/0').message, /"label"/);
  });

  it("duplicate ids: a string button's id is its label", () => {
    const finding = one(answer(message({ text: 'Pick one', buttons: ['Yes', { id: 'Yes', label: 'Sure' }] })), '/replies/0/buttons/1/id');
    assert.match(finding.message, /"Yes" is used again/);
    assert.match(finding.message, /\/replies\/0\/buttons\/0/);
    one(answer(message({ text: 'Pick one', buttons: ['Yes', 'Yes'] })), '/replies/0/buttons/1');
  });

  it('every repeat of an id is its own finding', () => {
    expectFindings(
      answer(
        message({
          text: 'Pick one',
          buttons: [
            { id: 'a', label: 'A' },
            { id: 'a', label: 'B' },
            { id: 'a', label: 'C' },
          ],
        }),
      ),
      ['schema error /replies/0/buttons/1/id', 'schema error /replies/0/buttons/2/id'],
    );
  });

  it('the same label with different ids is fine, and so are the same ids in two messages', () => {
    valid(
      answer(
        message({
          text: 'Pick one',
          buttons: [
            { id: 'a', label: 'Same' },
            { id: 'b', label: 'Same' },
          ],
        }),
      ),
    );
    valid(answer(message({ text: 'Pick one', buttons: ['Yes'] }), message({ text: 'Again?', buttons: ['Yes'] })));
  });
});

describe('lists', () => {
  const rows = (...ids: string[]) => ids.map((id) => ({ id, title: `Row ${id}` }));

  it('sections with optional titles, rows with optional descriptions', () => {
    valid(
      answer(
        message({
          text: 'Pick one',
          list: list([
            { title: 'Hot', rows: [{ id: 'latte', title: 'Latte', description: 'Espresso and milk' }] },
            { title: 'Cold', rows: rows('iced') },
          ]),
        }),
      ),
    );
  });

  it('row ids are unique across all sections of the list', () => {
    const finding = one(
      answer(
        message({
          text: 'Pick one',
          list: list([
            { title: 'Hot', rows: rows('a', 'b') },
            { title: 'Cold', rows: rows('c', 'a') },
          ]),
        }),
      ),
      '/replies/0/list/sections/1/rows/1/id',
    );
    assert.match(finding.message, /row id "a" is used again/);
  });

  it('needs an opener label and at least one section, each with at least one row', () => {
    one(answer(message({ text: 'Pick one', list: { sections: [{ rows: rows('a') }] } })), '/replies/0/list');
    one(answer(message({ text: 'Pick one', list: list([]) })), '/replies/0/list/sections');
    one(answer(message({ text: 'Pick one', list: list([{ title: 'Hot', rows: [] }]) })), '/replies/0/list/sections/0/rows');
  });

  it('a row needs an id and a title', () => {
    one(answer(message({ text: 'Pick one', list: list([{ rows: [{ id: 'a' }] }]) })), '/replies/0/list/sections/0/rows/0');
    one(answer(message({ text: 'Pick one', list: list([{ rows: [{ id: '', title: 'A' }] }]) })), '/replies/0/list/sections/0/rows/0/id');
  });
});

describe('links', () => {
  const withUrl = (url: unknown) => answer(message({ text: 'Our menu', link: { url, label: 'Menu' } }));

  it('take http and https URLs', () => {
    valid(withUrl('https://example.com/menu'));
    valid(withUrl('http://example.com/menu?day=mon#top'));
  });

  for (const url of [
    'ftp://example.com/menu',
    'mailto:hi@example.com',
    '/menu',
    'example.com/menu',
    'https://',
    'https://exa mple.com',
    '',
  ]) {
    it(`reject ${JSON.stringify(url)} with one finding at the url`, () => {
      assert.match(one(withUrl(url), '/replies/0/link/url').message, /http or https/);
    });
  }

  it('need a label', () => {
    one(answer(message({ text: 'Our menu', link: { url: 'https://example.com' } })), '/replies/0/link');
  });
});

describe('images', () => {
  const withImage = (image: unknown) => answer(message({ image }));

  it('take an https url, or base64 data with a mime type', () => {
    valid(withImage({ url: 'https://example.com/photo.jpg' }));
    valid(withImage({ data: 'iVBORw0KGgo=', mime: 'image/png' }));
    valid(withImage({ data: '/9j/4AAQSkZJRg==', mime: 'image/jpeg' }));
  });

  it('an http url is one finding at the url', () => {
    assert.match(one(withImage({ url: 'http://example.com/photo.jpg' }), '/replies/0/image/url').message, /https/);
  });

  it('data that is not padded base64 is one finding at the data', () => {
    for (const data of ['not base64!', 'abc', 'AAAAA', 'AA=A', '']) {
      one(withImage({ data, mime: 'image/png' }), '/replies/0/image/data');
    }
  });

  it('a mime that is not an image type is one finding at the mime', () => {
    one(withImage({ data: 'AAAA', mime: 'text/plain' }), '/replies/0/image/mime');
  });

  it('data without a mime is one finding', () => {
    assert.match(one(withImage({ data: 'AAAA' }), '/replies/0/image').message, /"mime"/);
  });

  it('a url and data together: the data is an unknown property', () => {
    one(withImage({ url: 'https://example.com/photo.jpg', data: 'AAAA' }), '/replies/0/image/data');
  });
});

describe('reactions', () => {
  it('one emoji on a message id', () => {
    valid(answer({ type: 'reaction', emoji: '👍', messageId: 'm1' }));
    valid(answer({ type: 'reaction', emoji: '👨‍👩‍👧', messageId: 'm1' }));
  });

  for (const emoji of ['xx', '👍👍', 'a', '']) {
    it(`${JSON.stringify(emoji)} is not one emoji: one finding at the emoji`, () => {
      assert.match(one(answer({ type: 'reaction', emoji, messageId: 'm1' }), '/replies/0/emoji').message, /exactly one emoji/);
    });
  }

  it('needs a messageId, non-empty', () => {
    assert.match(one(answer({ type: 'reaction', emoji: '👍' }), '/replies/0').message, /"messageId"/);
    one(answer({ type: 'reaction', emoji: '👍', messageId: '' }), '/replies/0/messageId');
    one(answer({ type: 'reaction', emoji: '👍', messageId: 7 }), '/replies/0/messageId');
  });

  it('two problems, two findings', () => {
    expectFindings(answer({ type: 'reaction', emoji: 'xx', messageId: 7 }), [
      'schema error /replies/0/emoji',
      'schema error /replies/0/messageId',
    ]);
  });
});

describe('templates', () => {
  const template = (fields: Record<string, unknown>) => answer({ type: 'template', name: 'order_ready', language: 'en_US', ...fields });
  // Templates are WhatsApp only: validate there, so only schema findings remain.
  const onWhatsapp = (body: unknown) => shapes(validateAnswer(body, { channel: 'whatsapp' }));

  it('name, language and optional string parameters', () => {
    assert.deepEqual(onWhatsapp(template({})), []);
    assert.deepEqual(onWhatsapp(template({ parameters: [] })), []);
    assert.deepEqual(onWhatsapp(template({ parameters: ['Ada', '42'] })), []);
    assert.deepEqual(onWhatsapp(template({ name: 'a'.repeat(512), language: 'en' })), []);
    assert.deepEqual(onWhatsapp(template({ language: 'fil' })), []);
  });

  for (const name of ['Order_Ready', 'order-ready', 'order ready', '', 'a'.repeat(513)]) {
    it(`name ${JSON.stringify(name.length > 20 ? `${name.slice(0, 5)}… (${name.length})` : name)} is one finding at the name`, () => {
      assert.deepEqual(onWhatsapp(template({ name })), ['schema error /replies/0/name']);
    });
  }

  for (const language of ['english', 'en-US', 'EN', 'en_us', 'e', '']) {
    it(`language ${JSON.stringify(language)} is one finding at the language`, () => {
      assert.deepEqual(onWhatsapp(template({ language })), ['schema error /replies/0/language']);
    });
  }

  it('missing name and language are one finding each', () => {
    assert.deepEqual(onWhatsapp(answer({ type: 'template' })), ['schema error /replies/0', 'schema error /replies/0']);
  });

  it('parameters are an array of strings: one finding per wrong item', () => {
    assert.deepEqual(onWhatsapp(template({ parameters: 'Ada' })), ['schema error /replies/0/parameters']);
    assert.deepEqual(onWhatsapp(template({ parameters: [1, 'Ada', null] })), [
      'schema error /replies/0/parameters/0',
      'schema error /replies/0/parameters/2',
    ]);
  });
});

describe('several replies', () => {
  it('findings come in document order, and a reply broken in shape is not also measured', () => {
    const findings = validateAnswer(
      answer(
        message({ text: 'a'.repeat(5000), buttton: ['x'] }), // schema: the typo; its length is not measured
        message({ text: 'fine' }),
        message({ text: 'a'.repeat(5000) }), // platform: too long on web
        { type: 'reaction', emoji: 'xx', messageId: 'm1' },
      ),
      { channel: 'web' },
    );
    assert.deepEqual(shapes(findings), [
      'schema error /replies/0/buttton',
      'platform error /replies/2/text',
      'schema error /replies/3/emoji',
    ]);
  });

  it('the same answer gives the same findings every time', () => {
    const body = answer(message({ text: '' }), { type: 'mesage' });
    assert.deepEqual(check(body), check(body));
  });
});

describe('a broken reply explained apart from the rest', () => {
  it('explaining broken replies apart gives the very findings explaining the whole answer gives', () => {
    // The same schema with a no-op rule over the list: its answers are explained whole.
    const responseSchema = structuredClone(bundledContract().responseSchema) as { properties: { replies: Record<string, unknown> } };
    responseSchema.properties.replies.minItems = 0;
    const whole = { ...bundledContract(), responseSchema } as Contract;
    const folder = join(ROOT, 'fixtures/answers');
    const bodies: unknown[] = readdirSync(folder)
      .filter((name) => name !== 'manifest.json')
      .map((name) => JSON.parse(readFileSync(join(folder, name), 'utf8')));
    bodies.push({
      replies: [message({ text: 'fine' }), message({ buttons: ['Yes'] }), message({ text: 'fine too' }), { type: 'reaction' }],
      extra: 1,
    });
    let explained = 0;
    for (const body of bodies) {
      for (const channel of [...PLATFORMS, 'matrix']) {
        const apart = validateAnswer(body, { channel });
        assert.deepEqual(apart, validateAnswer(body, { channel, contract: whole }), JSON.stringify(body).slice(0, 200));
        if (apart.some((finding) => finding.rule === 'schema')) explained++;
      }
    }
    assert.ok(explained > 50, `${explained} answers with schema findings compared`);
  });

  it('the bundled answer schema judges each reply alone; a schema with a rule over the whole list does not', async () => {
    const { judgesRepliesApart } = await import('../src/contract/compile-contract.js');
    const bundled = bundledContract().responseSchema;
    assert.equal(judgesRepliesApart(bundled), true);
    const withMaxItems = structuredClone(bundled) as { properties: { replies: Record<string, unknown> } };
    withMaxItems.properties.replies.maxItems = 2;
    assert.equal(judgesRepliesApart(withMaxItems), false);
    assert.equal(judgesRepliesApart({ ...bundled, allOf: [{}] }), false);
  });

  it('another contract with a rule over the whole list still has it found, with broken replies or without', () => {
    const responseSchema = structuredClone(bundledContract().responseSchema) as { properties: { replies: Record<string, unknown> } };
    responseSchema.properties.replies.maxItems = 2;
    const contract = { ...bundledContract(), responseSchema } as Contract;
    const three = [message({ text: 'a' }), message({ text: 'b' }), message({ text: 'c' })];
    assert.deepEqual(shapes(validateAnswer({ replies: three }, { channel: 'web', contract })), ['schema error /replies']);
    const oneBroken = [message({ text: 'a' }), message({ text: '' }), message({ text: 'c' })];
    assert.deepEqual(shapes(validateAnswer({ replies: oneBroken }, { channel: 'web', contract })), [
      'schema error /replies',
      'schema error /replies/1/text',
    ]);
    // A long list: the broken replies are found one by one, and the rule over the list is not lost.
    const many = Array.from({ length: 60 }, (_, i) => message({ text: `reply ${i}` }));
    assert.deepEqual(shapes(validateAnswer({ replies: many }, { channel: 'web', contract })), ['schema error /replies']);
  });
});
