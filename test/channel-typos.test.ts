/**
 * No silently weaker check: a --channel within two edits of a platform's name is taken for a typo
 * and refused (exit 2, "did you mean …?"), unless a --limits NAME=FILE names it; a custom channel
 * with no limits is checked against the schema only, and the header and summary say so loudly.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import { type RunningAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { UsageError, bundledContract, checkEndpoint } from '../src/index.js';
import { likelyPlatform, resolveChannels } from '../src/run/channels.js';
import { OptionError } from '../src/core/option-error.js';
import { FLAG_NAMES } from '../src/cli/options.js';
import { runCli } from './helpers.js';

const contract = bundledContract();
const platforms = Object.keys(contract.platforms);

describe('a channel name close to a platform is a typo', () => {
  const typos: [string, string][] = [
    ['whatsap', 'whatsapp'],
    ['whatsappp', 'whatsapp'],
    ['telegarm', 'telegram'],
    ['iMessage', 'imessage'],
    ['SMS', 'sms'],
    ['wbe', 'web'],
    ['imesage', 'imessage'],
    ['WhatsApp!', 'whatsapp'],
  ];
  for (const [typo, platform] of typos) {
    it(`${typo} → did you mean ${platform}?`, () => {
      assert.equal(likelyPlatform(typo, platforms), platform);
      assert.throws(
        () => resolveChannels([typo], contract),
        (cause: unknown) =>
          cause instanceof OptionError &&
          cause.message.startsWith(`channels: "${typo}" is not a channel; did you mean ${platform}?`) &&
          cause.messageFor(FLAG_NAMES).startsWith(`--channel ${typo}: no platform is called that; did you mean ${platform}?`) &&
          cause.messageFor(FLAG_NAMES).includes(`--limits ${typo}=FILE`),
      );
    });
  }

  for (const name of ['matrix', 'kiosk', 'teams', 'whatsapp-business', 'signal']) {
    it(`${name} is a custom channel (more than two edits from every platform)`, () => {
      assert.equal(likelyPlatform(name, platforms), undefined);
      assert.deepEqual(resolveChannels([name], contract), [name]);
    });
  }

  it('the platforms themselves, and all, are no typos', () => {
    assert.deepEqual(resolveChannels(['all'], contract), platforms);
    for (const platform of platforms) assert.equal(likelyPlatform(platform, platforms), undefined);
  });

  it('a --limits NAME=FILE for the name takes it as meant: a custom channel with those limits', () => {
    assert.deepEqual(resolveChannels(['whatsap'], contract, ['whatsap']), ['whatsap']);
    assert.throws(() => resolveChannels(['whatsap'], contract, ['other']), /did you mean whatsapp\?/);
  });

  it('checkEndpoint refuses it too, before anything is sent, unless its limits are given', async () => {
    await assert.rejects(checkEndpoint('http://127.0.0.1:1/', { channels: ['telegarm'] }), /did you mean telegram\?/);
  });
});

describe('the command', () => {
  let agent: RunningAgent | undefined;
  let folder = '';
  before(async () => {
    agent = await startReferenceAgent();
    folder = mkdtempSync(join(tmpdir(), 'channel-typos-'));
  });
  after(async () => {
    await agent?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('--channel whatsap: exit 2, "did you mean whatsapp?", nothing sent', async () => {
    const result = await runCli([agent!.url, '--channel', 'whatsap']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--channel whatsap: no platform is called that; did you mean whatsapp\?/);
    assert.equal(result.stdout, '');
  });

  test('validate --channel telegarm: exit 2 as well', async () => {
    const result = await runCli(['validate', '-', '--channel', 'telegarm'], { input: '{"replies":[]}' });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /did you mean telegram\?/);
  });

  test('--channel whatsap --limits whatsap=FILE: checked as a custom channel with those limits, no schema-only warning', async () => {
    const limits = join(folder, 'whatsap.json');
    writeFileSync(limits, JSON.stringify({ title: 'WhatsApp (staging)', counting: 'codepoints', text: { maxLength: 4096 } }));
    const result = await runCli([agent!.url, '--channel', 'whatsap', '--limits', `whatsap=${limits}`]);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.doesNotMatch(result.stdout, /ONLY THE SCHEMA|Only the schema/);
    assert.match(result.stdout, /^5 of 5 cases passed\.$/m);
  });

  test('a custom channel with no limits: the header line and the summary say only the schema was checked', async () => {
    const result = await runCli([agent!.url, '--channel', 'matrix', '--channel', 'kiosk']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const lines = result.stdout.split('\n');
    for (const name of ['matrix', 'kiosk']) {
      assert.ok(
        lines.some(
          (line) => line.startsWith(`WARNING: channel "${name}" is no platform the contract knows`) && line.includes('ONLY THE SCHEMA'),
        ),
        name,
      );
    }
    assert.match(
      result.stdout,
      /^10 of 10 cases passed\. Only the schema was checked on matrix, kiosk: no display limits are known for them\.$/m,
    );
  });
});
