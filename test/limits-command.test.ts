/**
 * `check-endpoint limits`: each platform's display limits from the loaded contract, as tables for
 * people and as JSON for tools; a custom channel's from its --limits file; an unknown channel is
 * exit 2, naming the known ones.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createAjv } from '../src/contract/ajv.js';
import { knownChannels } from '../src/contract/contract.js';
import { bundledContract } from '../src/contract/load-contract.js';
import type { PlatformRules } from '../src/platforms/platform-rules.js';
import { formatPlatformLimits } from '../src/report/limits-table.js';
import { ROOT, runCli } from './helpers.js';

const contract = bundledContract();
const PLATFORMS = knownChannels(contract);

const ajv = createAjv();
ajv.addSchema(JSON.parse(readFileSync(join(ROOT, 'spec/platform-limits.schema.json'), 'utf8')));
const reportSchema = JSON.parse(readFileSync(join(ROOT, 'spec/report.schema.json'), 'utf8'));
ajv.addSchema(reportSchema);
const validateLimitsReport = ajv.getSchema(`${reportSchema.$id}#/$defs/limitsReport`)!;

interface LimitsReport {
  spec: { version: string; source: string };
  platforms: { channel: string; limits: 'spec' | 'file'; file: string | null; rules: PlatformRules }[];
}

/** Runs `check-endpoint limits ARGS --json`: exit 0, a document that holds to its schema, nothing on stderr. */
async function limitsJson(args: string[]): Promise<LimitsReport> {
  const result = await runCli(['limits', ...args, '--json']);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, '');
  const document: unknown = JSON.parse(result.stdout);
  assert.ok(validateLimitsReport(document), JSON.stringify(validateLimitsReport.errors));
  return document as LimitsReport;
}

/** The tables' header lines: `WhatsApp (whatsapp), from …` → [channel, from]. */
function headers(stdout: string): [string, string][] {
  return [...stdout.matchAll(/^\S.* \(([a-z][a-z0-9_-]*)\), from (.+)$/gm)].map((match) => [match[1]!, match[2]!]);
}

/** One platform's table: its header line and the lines up to the next table's. */
function tableOf(stdout: string, channel: string): string {
  const lines = stdout.split('\n');
  const isHeader = (line: string) => /^\S.* \([a-z][a-z0-9_-]*\), from /.test(line);
  const start = lines.findIndex((line) => isHeader(line) && line.includes(` (${channel}), from `));
  assert.ok(start >= 0, `a table for ${channel}`);
  const next = lines.findIndex((line, index) => index > start && isHeader(line));
  return lines.slice(start, next < 0 ? undefined : next).join('\n');
}

const ACME: PlatformRules = {
  title: 'Acme chat',
  counting: 'codepoints',
  text: { maxLength: 500 },
  buttons: { support: 'yes', maxCount: 2, labelMaxLength: 12 },
  reaction: { support: 'no' },
};

let tmp: string;
let acmeFile: string;

before(() => {
  tmp = mkdtempSync(join(tmpdir(), 'check-endpoint-limits-'));
  acmeFile = join(tmp, 'acme.json');
  writeFileSync(acmeFile, JSON.stringify(ACME));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

describe('check-endpoint limits --json', () => {
  test("whatsapp: the contract's figures, exactly as x-platforms has them", async () => {
    const report = await limitsJson(['whatsapp']);
    assert.deepEqual(report.spec, { version: contract.version, source: 'bundled' });
    assert.deepEqual(
      report.platforms.map(({ channel, limits, file }) => ({ channel, limits, file })),
      [{ channel: 'whatsapp', limits: 'spec', file: null }],
    );
    const [whatsapp] = report.platforms;
    assert.deepEqual(whatsapp!.rules, contract.platforms.whatsapp);
    // The figures of the contract (shared/contract.md: Meta's Cloud API reference).
    assert.equal(whatsapp!.rules.text?.maxLength, 4096);
    assert.equal(whatsapp!.rules.buttons?.maxCount, 3);
    assert.equal(whatsapp!.rules.buttons?.labelMaxLength, 20);
    assert.equal(whatsapp!.rules.list?.maxRows, 10);
    assert.equal(whatsapp!.rules.list?.rowTitleMaxLength, 24);
    assert.equal(whatsapp!.rules.link?.labelMaxLength, 20);
    assert.equal(whatsapp!.rules.image?.captionMaxLength, 1024);
  });

  test("no channel, or all: the contract's platforms, in its order", async () => {
    for (const args of [[], ['all']]) {
      const report = await limitsJson(args);
      const channels = report.platforms.map((platform) => platform.channel);
      assert.deepEqual(
        channels.filter((channel) => ['whatsapp', 'sms', 'imessage', 'telegram', 'web'].includes(channel)),
        ['whatsapp', 'sms', 'imessage', 'telegram', 'web'],
      );
      assert.deepEqual(channels, PLATFORMS);
      assert.deepEqual(
        report.platforms.map((platform) => platform.rules),
        PLATFORMS.map((channel) => contract.platforms[channel]),
      );
    }
  });

  test('channels named twice are shown once, in the order asked', async () => {
    const report = await limitsJson(['telegram', 'sms', 'telegram']);
    assert.deepEqual(
      report.platforms.map((platform) => platform.channel),
      ['telegram', 'sms'],
    );
  });

  test("--limits NAME=FILE: a custom channel's rules from its file, beside the platforms when no channel is named", async () => {
    const named = await limitsJson(['acme', '--limits', `acme=${acmeFile}`]);
    assert.deepEqual(named.platforms, [{ channel: 'acme', limits: 'file', file: acmeFile, rules: ACME }]);
    const all = await limitsJson(['--limits', `acme=${acmeFile}`]);
    assert.deepEqual(
      all.platforms.map((platform) => platform.channel),
      [...PLATFORMS, 'acme'],
    );
    // A file without a name is for the custom channels asked for.
    const unnamed = await limitsJson(['acme', 'sms', '--limits', acmeFile]);
    assert.deepEqual(
      unnamed.platforms.map(({ channel, limits, file }) => ({ channel, limits, file })),
      [
        { channel: 'acme', limits: 'file', file: acmeFile },
        { channel: 'sms', limits: 'spec', file: null },
      ],
    );
  });

  test('--spec FILE: the limits of that contract', async () => {
    const spec = join(tmp, 'spec');
    cpSync(join(ROOT, 'spec'), spec, { recursive: true });
    const openapi = join(spec, 'agent-endpoint.openapi.yaml');
    const text = readFileSync(openapi, 'utf8');
    const changed = text.replace(/(\n {2}whatsapp:\n(?: {4}.*\n)*? {4}text: \{ maxLength: )4096\b/, '$12048');
    assert.notEqual(changed, text, "the copy's WhatsApp text limit is changed");
    writeFileSync(openapi, changed);
    const report = await limitsJson(['whatsapp', '--spec', openapi]);
    assert.equal(report.spec.source, openapi);
    assert.equal(report.platforms[0]!.rules.text?.maxLength, 2048);
  });
});

describe('check-endpoint limits, for people', () => {
  test("without a channel, a table for each of the contract's platforms", async () => {
    const result = await runCli(['limits']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      headers(result.stdout),
      PLATFORMS.map((channel) => [channel, `the contract ${contract.version} (bundled)`]),
    );
  });

  test('every limit with its unit: code points, UTF-16 code units on Telegram, bytes', async () => {
    const { stdout } = await runCli(['limits']);
    const whatsapp = tableOf(stdout, 'whatsapp');
    assert.match(whatsapp, /^Lengths are counted in characters \(Unicode code points\)\.$/m);
    assert.match(whatsapp, /^ {2}text +yes +length +at most 4096 code points$/m);
    assert.match(whatsapp, /^ {2}buttons +yes +buttons +at most 3$/m);
    assert.match(whatsapp, /^ +label length +at most 20 code points$/m);
    assert.match(whatsapp, /^ +rows, all sections together +at most 10$/m);
    assert.match(whatsapp, /^ +caption length +at most 1024 code points$/m);
    assert.match(whatsapp, /^ {2}image +yes +types \(data images\) +image\/jpeg, image\/png$/m);
    assert.match(whatsapp, /^ +size \(data images\) +at most 5,242,880 bytes \(5 MiB\)$/m);
    assert.match(whatsapp, /^ {2}Sources: Meta's WhatsApp Cloud API reference/m);
    const telegram = tableOf(stdout, 'telegram');
    assert.match(telegram, /^Lengths are counted in UTF-16 code units\.$/m);
    assert.match(telegram, /^ {2}text +yes +length +at most 4096 UTF-16 code units$/m);
    assert.match(telegram, /^ +id size +at most 64 bytes \(UTF-8\)$/m);
    assert.match(tableOf(stdout, 'imessage'), /^ {2}link button +yes +label shown +no$/m);
    for (const channel of PLATFORMS) {
      const soft = contract.platforms[channel]!.text?.softLength;
      const row = /^ +one chat bubble +at most (\d+) .*, or a warning \(rule bubbles\)$/m.exec(tableOf(stdout, channel));
      assert.equal(row === null ? undefined : Number(row[1]), soft, channel);
    }
  });

  test("the reaction emoji each takes: any one, none, or Telegram's list, every one of them", async () => {
    const { stdout } = await runCli(['limits']);
    assert.match(tableOf(stdout, 'whatsapp'), /^ {2}reaction +yes +emoji +any one emoji$/m);
    assert.match(tableOf(stdout, 'sms'), /^ {2}reaction +no \(not sent\)$/m);
    const telegram = tableOf(stdout, 'telegram');
    const listed = contract.platforms.telegram!.reaction!.emoji;
    assert.ok(Array.isArray(listed));
    assert.match(telegram, new RegExp(`^ {2}reaction +yes +emoji +only these ${listed.length}, exactly as written:$`, 'm'));
    const shown = telegram.split(/\s+/);
    assert.deepEqual(
      listed.filter((emoji) => !shown.includes(emoji)),
      [],
      'every listed emoji, as written',
    );
  });

  test("SMS: what it leaves out, and its encodings' segment sizes", async () => {
    const sms = tableOf((await runCli(['limits', 'sms'])).stdout, 'sms');
    assert.match(sms, /^ {2}buttons +no \(not sent\)$/m);
    assert.match(sms, /^ {2}replyTo \(quote\) +ignored \(sent without it\)$/m);
    assert.match(sms, /^ {2}SMS segments +GSM-7 encoding +160 septets in one segment, 153 a segment when split$/m);
    assert.match(sms, /^ +UCS-2 encoding +70 UTF-16 code units in one segment, 67 a segment when split$/m);
    assert.match(sms, /^ {2}text +yes +length +at most 1600 GSM-7 septets or UCS-2 code units$/m);
  });

  test('a platform that renders no Markdown says none; one that renders some names it, and its own bold', async () => {
    const { stdout } = await runCli(['limits']);
    for (const channel of PLATFORMS) {
      const markdown = contract.platforms[channel]!.markdown;
      if (!markdown) continue;
      const said = markdown.renders.length === 0 ? 'none' : markdown.renders.join(', ');
      assert.match(tableOf(stdout, channel), new RegExp(`^ {2}markdown +Markdown it renders +${said}$`, 'm'), channel);
      if (markdown.bold !== undefined)
        assert.match(tableOf(stdout, channel), new RegExp(`^ +its own bold mark +\\${markdown.bold}$`, 'm'), channel);
    }
    assert.equal(contract.platforms.sms!.markdown?.renders.length, 0, 'SMS renders no Markdown');
  });

  test('a custom channel from its --limits file', async () => {
    const result = await runCli(['limits', 'acme', '--limits', `acme=${acmeFile}`]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(headers(result.stdout), [['acme', `--limits ${acmeFile}`]]);
    assert.match(result.stdout, /^Acme chat \(acme\), from /m);
    assert.match(result.stdout, /^ {2}buttons +yes +buttons +at most 2$/m);
    assert.match(result.stdout, /^ +label length +at most 12 code points$/m);
  });
});

describe('check-endpoint limits: a channel with no known limits', () => {
  for (const [args, said] of [
    [['whatsap'], /^check-endpoint: no display limits are known for channel "whatsap"; did you mean whatsapp\? /],
    [['sms', 'telegarm'], /^check-endpoint: no display limits are known for channel "telegarm"; did you mean telegram\? /],
    [['WhatsApp'], /^check-endpoint: "WhatsApp" is not a channel name; did you mean whatsapp\? /],
    [['acme'], /^check-endpoint: no display limits are known for channel "acme"\. .*--limits acme=FILE/],
  ] as const) {
    test(`limits ${args.join(' ')}: exit 2, the known channels named`, async () => {
      const result = await runCli(['limits', ...args]);
      assert.equal(result.code, 2);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, said);
      assert.ok(result.stderr.includes(`The known channels: ${PLATFORMS.join(', ')}.`), result.stderr);
      assert.match(result.stderr, /The known channels: whatsapp, sms, imessage, telegram, web\b/);
    });
  }

  test('a file without a name is not taken for a likely typo of a platform', async () => {
    const result = await runCli(['limits', 'whatsap', '--limits', acmeFile]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /did you mean whatsapp\?/);
  });

  test('a custom channel a --limits file names is known', async () => {
    const result = await runCli(['limits', 'acmee', '--limits', `acme=${acmeFile}`]);
    assert.equal(result.code, 2);
    assert.ok(result.stderr.includes(`did you mean acme? The known channels: ${[...PLATFORMS, 'acme'].join(', ')}.`), result.stderr);
  });
});

describe('the table reads the rules generically', () => {
  test('a field it has no words for is shown all the same, named from its key', () => {
    const sms = contract.platforms.sms!;
    // Rules as a later contract might have them: a feature counting in its own unit, a new feature.
    const later = {
      ...sms,
      text: { maxLength: 1600, counting: 'sms-encoded' },
      stickers: { support: 'no', shownRaw: ['**bold**', '# heading'], maxNestingDepth: 2 },
    };
    const lines = formatPlatformLimits(later, { channel: 'sms', from: 'a test' }).join('\n');
    assert.match(lines, /^ {2}text +yes +length +at most 1600 sms-encoded$/m);
    assert.match(lines, /^ +lengths counted in +sms-encoded$/m);
    assert.match(lines, /^ {2}stickers +no \(not sent\) +shown raw +\*\*bold\*\*, # heading$/m);
    assert.match(lines, /^ +max nesting depth +at most 2$/m);
  });
});
