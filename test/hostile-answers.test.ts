import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { RawResponse, serveAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { MAX_FINDINGS, checkEndpoint, validateAnswer } from '../src/index.js';
import { everyReport, runCli } from './helpers.js';

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('answers built to overwhelm the validator stay bounded', () => {
  test('a million broken replies: at most 50 findings, the rest counted', () => {
    const findings = validateAnswer({ replies: new Array(1_000_000).fill(1) }, { channel: 'whatsapp' });
    assert.equal(findings.length, MAX_FINDINGS);
    assert.ok(findings.every((finding) => finding.rule === 'schema'));
    assert.ok(
      findings.some((finding) => finding.path === '/replies' && /^more than 49 replies do not match the schema/.test(finding.message)),
    );
  });

  test('140,000 repeated button ids in one reply: capped, no stack overflow', () => {
    const buttons = new Array(140_000).fill('a');
    const findings = validateAnswer({ replies: [{ type: 'message', text: 'pick', buttons }] }, { channel: 'web' });
    assert.equal(findings.length, MAX_FINDINGS);
    assert.ok(findings.some((finding) => /button id "a" is used again/.test(finding.message)));
  });

  test('300,000 unknown properties in one reply: capped', () => {
    const reply: Record<string, unknown> = { type: 'message', text: 'x' };
    for (let index = 0; index < 300_000; index++) reply[`k${index}`] = 1;
    const findings = validateAnswer({ replies: [reply] }, { channel: 'whatsapp' });
    assert.equal(findings.length, MAX_FINDINGS);
  });

  test('a reaction of 60,000 emoji is not one emoji, found at once', () => {
    const findings = validateAnswer(
      { replies: [{ type: 'reaction', emoji: '👍'.repeat(60_000), messageId: 'm1' }] },
      { channel: 'whatsapp' },
    );
    assert.deepEqual(
      findings.map((finding) => [finding.rule, finding.path]),
      [['schema', '/replies/0/emoji']],
    );
  });

  test('control characters from the agent never reach the terminal raw', async () => {
    const agent = await serveAgent(() => ({
      replies: [
        {
          type: 'message',
          text: 'pick',
          buttons: ['b\n::error title=pwned::injected\u001b[2K', 'b\n::error title=pwned::injected\u001b[2K'],
        },
      ],
    }));
    try {
      const result = await runCli([agent.url, '--case', 'typed']);
      assert.equal(result.code, 1);
      const output = result.stdout + result.stderr;
      assert.ok(!/^::error/m.test(output), 'no line the CI runner would read as a workflow command');
      assert.ok(!output.includes('\u001b'), 'no escape sequence');
      assert.match(result.stdout, /button id "b\\n::error title=pwned::injected\\u001b\[2K" is used again/);
    } finally {
      await agent.close();
    }
  });
});

describe('the token, sent back by the agent, is written nowhere', () => {
  test('an error page and a reply that echo the authorization header', async () => {
    const token = 'echoed-secret-83ab';
    const agent = await serveAgent((request, raw) =>
      request.message.attachments
        ? new RawResponse(401, `bad token ${raw.headers.authorization}`, {
            'content-type': 'text/plain',
            'x-seen': String(raw.headers.authorization),
          })
        : { replies: [{ type: 'message', text: `you sent ${raw.headers.authorization}` }] },
    );
    const tmp = mkdtempSync(join(tmpdir(), 'check-endpoint-echo-'));
    try {
      const result = await runCli([agent.url, '--json', '--report-dir', tmp, '--html', join(tmp, 'page.html')], {
        env: { FLOW_FRAMEWORK_AGENT_TOKEN: token, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(tmp, 'summary.md') },
      });
      assert.equal(result.code, 1);
      assert.ok(!result.stdout.includes(token) && !result.stderr.includes(token));
      for (const file of readdirSync(tmp)) assert.ok(!readFileSync(join(tmp, file), 'utf8').includes(token), file);
      assert.match(result.stdout, /Bearer <redacted>/);
    } finally {
      await agent.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

/** The secret written as JSON escapes: every character (`\u0073\u006b…`), or every other one (`\u0073k\u002dl…`). */
function jsonEscaped(secret: string, every = 1): string {
  return [...secret].map((char, index) => (index % every === 0 ? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}` : char)).join('');
}
/** Every byte as %XX, in lower or upper case hex. */
function percentEncoded(secret: string, upper = false): string {
  const text = [...Buffer.from(secret)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  return upper ? text.toUpperCase() : text;
}
const base64 = (text: string): string => Buffer.from(text).toString('base64');
const base64url = (text: string): string => Buffer.from(text).toString('base64url');
/** HTML character references, decimal and hex in turn. */
function htmlReferences(secret: string): string {
  return [...secret].map((char, index) => (index % 2 ? `&#x${char.charCodeAt(0).toString(16)};` : `&#${char.charCodeAt(0)};`)).join('');
}

/** Every encoding the agent below echoes a secret in, by name; `line` is the header line it was sent in. */
function encodings(secret: string, line: string): Record<string, string> {
  return {
    plain: secret,
    'JSON escapes': jsonEscaped(secret),
    'JSON escapes, mixed': jsonEscaped(secret, 2),
    'percent-encoded': percentEncoded(secret),
    'percent-encoded, upper case': percentEncoded(secret, true),
    base64: base64(secret),
    base64url: base64url(secret),
    'base64 of the header line': base64(line),
    'base64 of the header line and name': base64(`x-echo: ${line}`),
    'HTML references': htmlReferences(secret),
    hex: Buffer.from(secret).toString('hex'),
  };
}

describe('the token and a --header-env value, echoed in any encoding, are written nowhere', () => {
  test('JSON escapes, percent-encoding, base64 (of the value and of its header line), HTML references, hex: in replies, keys, button ids, headers, an error page', async () => {
    const token = 'sk-live+83ab/Zq=TOKEN';
    const apiKey = 'key-7f31+Zq/HEADERENV';
    const secrets = { token: encodings(token, `Bearer ${token}`), apiKey: encodings(apiKey, apiKey) };
    const requests: string[] = [];
    const agent = await serveAgent((request, raw) => {
      requests.push(JSON.stringify(request));
      const sentToken = String(raw.headers.authorization).replace(/^Bearer /, '');
      const sentKey = String(raw.headers['x-api-key']);
      // The agent encodes what it was sent: the secrets the test gave.
      assert.equal(sentToken, token);
      assert.equal(sentKey, apiKey);
      const echoed = `token ${Object.values(secrets.token).join(' ')} key ${Object.values(secrets.apiKey).join(' ')}`;
      const headers = { 'x-echo': base64(`Bearer ${token}`), 'x-key': percentEncoded(apiKey) };
      if (request.message.attachments) {
        const page = `<html><head><title>Denied ${htmlReferences(token)}</title></head><body><p>key ${htmlReferences(apiKey)} refused</p></body></html>`;
        return new RawResponse(500, page, { 'content-type': 'text/html', ...headers });
      }
      // Built by hand: JSON.stringify would escape the escapes. A valid offer of buttons whose ids
      // are the secrets, which the button-tap case's next turn quotes; the typed case's answer has
      // them as an unknown key too, which a finding quotes.
      const buttons = `"buttons":[{"id":"${jsonEscaped(token)}","label":"a"},{"id":"b-${jsonEscaped(apiKey, 2)}","label":"b"}]`;
      const unknown = request.message.text?.includes('open today') ? `,"${jsonEscaped(token, 3)}":"${base64(apiKey)}"` : '';
      const body = `{"replies":[{"type":"message","text":"${echoed}",${buttons}}]${unknown}}`;
      return new RawResponse(200, body, { 'content-type': 'application/json', ...headers });
    });
    const tmp = mkdtempSync(join(tmpdir(), 'check-endpoint-encoded-echo-'));
    try {
      const result = await runCli(
        [agent.url, '--header-env', 'x-api-key=API_KEY', '--case', 'typed', '--case', 'button-tap', '--case', 'photo', ...everyReport(tmp)],
        {
          cwd: tmp,
          env: { FLOW_FRAMEWORK_AGENT_TOKEN: token, API_KEY: apiKey, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(tmp, 'summary.md') },
        },
      );
      assert.equal(result.code, 1, result.stderr);
      const files = filesUnder(tmp);
      for (const name of ['a.har', 'a.xml', 'a.html', 'summary.md', 'last-run.json', 'report.json']) {
        assert.ok(
          files.some((file) => file.endsWith(name)),
          `${name} was written: ${files.join(' ')}`,
        );
      }
      const outputs: [string, string][] = [
        ['stdout', result.stdout],
        ['stderr', result.stderr],
        ['the requests the agent got', requests.join('\n')],
        ...files.map((file): [string, string] => [file, readFileSync(file, 'utf8')]),
      ];
      const leaks = outputs.flatMap(([where, text]) =>
        Object.entries(secrets).flatMap(([secret, byEncoding]) =>
          Object.entries(byEncoding)
            .filter(([, form]) => text.includes(form))
            .map(([encoding]) => `${where.startsWith(tmp) ? relative(tmp, where) : where}: the ${secret}, ${encoding}`),
        ),
      );
      assert.deepEqual(leaks, []);
      // The button-tap case played its second turn, tapping the first button (its id the token,
      // redacted) and quoting its message: the agent was sent none of its secrets back.
      assert.ok(
        requests.some((body) => body.includes('"choice":{"id":"<redacted>"') && body.includes('"text":"token <redacted>')),
        requests.filter((body) => !body.includes('attachments')).join('\n'),
      );
      assert.match(result.stdout, /token <redacted> <redacted>/);
    } finally {
      await agent.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('the reference agent answers bad input with 400, not 500', () => {
  test('wrong types, a null attachment, a body that is not an object', async () => {
    const agent = await startReferenceAgent();
    try {
      const bodies = [
        { conversationId: 'a', messageId: 'b', channel: 'whatsapp', message: { text: 5 } },
        { conversationId: 'a', messageId: 'b', channel: 'whatsapp', message: { text: '', attachments: [null] } },
        { conversationId: 'a', messageId: 'b', channel: 'whatsapp', message: { text: '', choice: 'yes' } },
        [1, 2],
      ];
      for (const body of bodies) {
        const response = await fetch(agent.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        assert.equal(response.status, 400, JSON.stringify(body));
        assert.match(await response.text(), /"error":"/);
      }
    } finally {
      await agent.close();
    }
  });
});

describe('an answer with 10,000 headers (issue 52, 10)', () => {
  test("its fault is its headers, on every case: forward-compat does not blame unknown fields (no 'DisallowUnknownFields')", async () => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    for (let index = 0; index < 10_000; index++) headers[`x-h${index}`] = '1';
    const agent = await serveAgent(() => new RawResponse(200, JSON.stringify({ replies: [{ type: 'message', text: 'hi' }] }), headers));
    try {
      const report = await checkEndpoint(agent.url, { env: {}, channels: ['whatsapp'], cases: ['typed', 'quality/forward-compat'] });
      const findings = report.cases.flatMap((played) => played.findings.map((finding) => ({ case: played.id, ...finding })));
      const compat = findings.filter((finding) => finding.case === 'quality/forward-compat');
      assert.ok(compat.length > 0, JSON.stringify(findings));
      for (const finding of compat) {
        assert.notEqual(finding.rule, 'forward-compat', finding.message);
        assert.doesNotMatch(`${finding.message} ${finding.hint ?? ''}`, /DisallowUnknownFields|fields you do not know/);
        assert.match(finding.message, /headers are larger than 16 KiB/);
      }
    } finally {
      await agent.close();
    }
  });
});
