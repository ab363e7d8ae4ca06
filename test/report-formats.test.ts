/**
 * The report formats' registry (src/report/formats.ts) is what --report-dir, the formats' own
 * flags, their help, docs/report-formats.md and check-endpoint/report read: each format's file is
 * written where it is asked for, and nowhere else.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { argumentKey, optionSpec, optionsOf } from '../src/cli/options.js';
import { writeReports } from '../src/commands/report-files.js';
import { NO_COLOURS } from '../src/report/colour.js';
import { REPORT_FORMATS } from '../src/report/formats.js';
import { HarRecorder } from '../src/report/har.js';
import * as reportExports from '../src/reports.js';
import { type RunningAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { checkEndpoint } from '../src/run/check-endpoint.js';
import type { Report } from '../src/core/report.js';
import { DOC_FILE, withTable } from '../scripts/report-formats-doc.js';
import { ROOT } from './helpers.js';

describe('the registry', () => {
  test('ids, files and flags are each used once', () => {
    for (const key of ['id', 'dirFile'] as const) {
      const values = REPORT_FORMATS.flatMap((format) => format[key] ?? []);
      assert.equal(new Set(values).size, values.length, key);
    }
    const flags = REPORT_FORMATS.flatMap((format) => format.flag?.name ?? []);
    assert.equal(new Set(flags).size, flags.length);
  });

  test("each format's own flag is a flag of the check, with the registry's placeholder and help", () => {
    for (const { flag } of REPORT_FORMATS) {
      if (!flag) continue;
      assert.ok(optionsOf('check').includes(flag.name), flag.name);
      const spec = optionSpec(flag.name);
      assert.equal(spec.type, 'string');
      assert.equal(spec.type === 'string' && spec.placeholder, flag.placeholder);
      assert.equal(spec.description, flag.help);
    }
  });

  test("--report-dir's help names every format's file in the folder", () => {
    const help = optionSpec('report-dir').description;
    for (const { dirFile } of REPORT_FORMATS) if (dirFile) assert.ok(help.includes(dirFile), `${dirFile}: ${help}`);
  });

  test(`${DOC_FILE} lists every format as the registry says (npm run build writes its table)`, () => {
    const page = readFileSync(join(ROOT, DOC_FILE), 'utf8');
    assert.equal(page, withTable(page));
    for (const format of REPORT_FORMATS) assert.ok(page.includes(`| \`${format.id}\` |`), format.id);
  });

  test('check-endpoint/report exports the registry', () => {
    assert.equal(reportExports.REPORT_FORMATS, REPORT_FORMATS);
  });
});

describe('writing the files of a run', () => {
  let agent: RunningAgent;
  let report: Report;
  let tmp: string;
  const archive = new HarRecorder();
  const extras = { archive, agentLog: undefined, strict: false, startedAt: new Date() };
  const quiet = { line: () => {}, colour: NO_COLOURS, error: () => {}, json: () => {} };
  before(async () => {
    agent = await startReferenceAgent();
    report = await checkEndpoint(agent.url, { cases: ['typed'], onExchange: archive.record });
    tmp = mkdtempSync(join(tmpdir(), 'check-endpoint-formats-'));
  });
  after(async () => {
    await agent.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  test('--report-dir writes each format that has a file there, as its writer renders it', async () => {
    const dir = join(tmp, 'dir');
    await writeReports({ reportDir: dir }, report, extras, quiet);
    const expected = REPORT_FORMATS.flatMap((format) => format.dirFile ?? []);
    assert.deepEqual(readdirSync(dir).sort(), [...expected].sort());
    for (const format of REPORT_FORMATS) {
      if (!format.dirFile) continue;
      assert.equal(readFileSync(join(dir, format.dirFile), 'utf8'), await format.render(report, extras), format.id);
    }
  });

  test("each format's own flag writes that format alone, to the file it names", async () => {
    for (const format of REPORT_FORMATS) {
      if (!format.flag) continue;
      const file = join(tmp, 'own', format.id);
      await writeReports({ [argumentKey(format.flag.name)]: file }, report, extras, quiet);
      assert.equal(readFileSync(file, 'utf8'), await format.render(report, extras), format.id);
      assert.deepEqual(readdirSync(join(tmp, 'own')), [format.id]);
      rmSync(join(tmp, 'own'), { recursive: true });
    }
  });

  test('a run that could not start gets no file from a format that has nothing for it', async () => {
    const failed: Report = { ...report, outcome: 'error', exitCode: 2, error: { message: 'could not reach' } };
    const dir = join(tmp, 'error');
    await writeReports({ reportDir: dir }, failed, extras, quiet);
    for (const format of REPORT_FORMATS) {
      if (!format.dirFile) continue;
      assert.equal(existsSync(join(dir, format.dirFile)), (await format.render(failed, extras)) !== undefined, format.id);
    }
    assert.ok(!existsSync(join(dir, 'report.html')), 'no preview of a run that could not start');
  });
});
