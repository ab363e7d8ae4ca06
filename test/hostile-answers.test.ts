import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { RawResponse, serveAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { MAX_FINDINGS, validateAnswer } from '../src/index.js';
import { runCli } from './helpers.js';

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
