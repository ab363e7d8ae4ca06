/**
 * Input at the edges of what JavaScript holds ends in a message naming it, never an internal error
 * (issue 52, 8): prototype keys as case ids (`__proto__`, `constructor`) in a config file and in
 * --case-setting, and a scenario whose `now` and `{{now + 1d}}` fall past the last date a clock shows.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { caseSettingsOf } from '../src/commands/case-setting-flag.js';
import { serveAgent } from '../src/example-agent/serve-agent.js';
import { runCli } from './helpers.js';

const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-internal-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const URL = 'http://127.0.0.1:9/agent';
const ENV = { GITHUB_ACTIONS: undefined, FLOW_FRAMEWORK_AGENT_TOKEN: undefined };

describe('prototype keys as case ids', () => {
  test('caseSettingsOf keeps __proto__ and constructor as keys of their own, and Object.prototype as it was', () => {
    const settings = caseSettingsOf(['__proto__.x=1', 'constructor.y=2']);
    assert.deepEqual(Object.keys(settings), ['__proto__', 'constructor']);
    assert.equal(Object.getPrototypeOf(settings), Object.prototype);
    assert.equal(Object.hasOwn(Object.prototype, 'x'), false, 'nothing was written into Object.prototype');
    assert.equal(Object.hasOwn(Object, 'y'), false);
  });

  for (const id of ['__proto__', 'constructor']) {
    test(`"cases": {"${id}": {"x": 1}} in a config, and --case-setting ${id}.x=1: "not a case", exit 2`, async () => {
      const cwd = join(folder, `config-${id}`);
      mkdirSync(cwd);
      writeFileSync(join(cwd, 'check-endpoint.config.json'), `{"url":"${URL}","cases":{"${id}":{"x":1}}}`);
      for (const args of [[], [URL, '--no-config', '--case-setting', `${id}.x=1`]]) {
        const result = await runCli(args, { cwd, env: ENV });
        assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
        assert.match(result.stderr, new RegExp(`"${id}" is not a case`), args.join(' '));
        assert.doesNotMatch(result.stderr, /internal error/);
      }
    });
  }
});

describe('a scenario at the ends of the dates a clock shows', () => {
  test('now: +275760-09-13T00:00:00Z with {{now + 1d}}: a problem of the file, through --lint and a check', async () => {
    const cwd = join(folder, 'now');
    mkdirSync(join(cwd, 'sc'), { recursive: true });
    writeFileSync(
      join(cwd, 'sc', 'late.yaml'),
      'id: late\nchannels: [web]\nnow: +275760-09-13T00:00:00Z\nopening:\n  - say: "book it for {{now + 1d}}"\n',
    );
    const lint = await runCli(['scenarios', '--lint', 'sc'], { cwd, env: ENV });
    assert.equal(lint.code, 1, lint.stdout + lint.stderr);
    assert.match(lint.stdout + lint.stderr, /\{\{now \+ 1d\}\} falls outside the dates a clock can show/);
    const agent = await serveAgent(() => ({ replies: [{ type: 'message', text: 'booked' }] }));
    const check = await runCli([agent.url, '--channel', 'web', '--case', 'typed', '--scenarios', 'sc'], { cwd, env: ENV }).finally(() =>
      agent.close(),
    );
    assert.doesNotMatch(check.stdout + check.stderr, /internal error|Invalid time value/);
    assert.match(check.stdout + check.stderr, /falls outside the dates a clock can show/);
  });
});
