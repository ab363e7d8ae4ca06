/**
 * The JUnit files of real runs, as a CI server reads them: each validates against the schema of
 * Jenkins' xUnit plugin (test/xsd/junit-10.xsd), checked by xmllint compiled to WebAssembly, and
 * every testsuite says when the run started, against which host, with which tool, contract and
 * channels. Runs of a passing, a failing, a quality and an interrupted check, and of one that could
 * not run; real agents on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import { validateXML } from 'xmllint-wasm';
import { BROKEN_AGENTS, VALID_AGENTS } from '../fixtures/agents/catalogue.js';
import { WELL_BEHAVED_AGENT } from '../fixtures/agents/quality.js';
import { bundledContract } from '../src/contract/load-contract.js';
import { TOOL_VERSION } from '../src/core/version.js';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { renderJunit } from '../src/report/junit.js';
import { checkEndpoint } from '../src/run/check-endpoint.js';
import { ROOT, runCli } from './helpers.js';
import { CHANNELS, FIXED_CASE_IDS, QUALITY_IDS } from './contract-ids.js';

const JUNIT_XSD = readFileSync(join(ROOT, 'test/xsd/junit-10.xsd'), 'utf8');
const TOKEN_ENV = 'JUNIT_SCHEMA_TEST_TOKEN';
const TOKEN = 'junit-schema-token-3c9d1e';
const byName = (name: string) => [...VALID_AGENTS, ...BROKEN_AGENTS].find((agent) => agent.name === name)!.handler;

/** xmllint's verdict on a JUnit file: its errors, one a line; none when it is valid. */
async function schemaErrors(xml: string, fileName: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName, contents: xml }], schema: [JUNIT_XSD] });
  return result.valid ? [] : result.errors.map((error) => error.rawMessage);
}

interface Suite {
  name: string;
  timestamp?: string;
  hostname?: string;
  skipped?: string;
  properties?: { property: { name: string; value: string }[] };
  testcase: { name: string; skipped?: { message: string } | string; failure?: unknown }[];
}

function suitesOf(xml: string): Suite[] {
  const parsed: unknown = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name),
  }).parse(xml);
  assert.ok(typeof parsed === 'object' && parsed !== null && 'testsuites' in parsed);
  const root = parsed.testsuites;
  assert.ok(typeof root === 'object' && root !== null && 'testsuite' in root && Array.isArray(root.testsuite));
  return root.testsuite as Suite[];
}

function propertiesOf(suite: Suite): Record<string, string> {
  return Object.fromEntries((suite.properties?.property ?? []).map((property) => [property.name, property.value]));
}

/** A loopback port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}

/** The run's start, as the timestamp writes it (to the second): between these two, inclusive. */
function assertStartedBetween(timestamp: string | undefined, before: Date, after: Date): void {
  assert.match(timestamp ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, 'ISO 8601 in UTC');
  const at = Date.parse(timestamp!);
  assert.ok(at >= Math.floor(before.getTime() / 1000) * 1000 && at <= after.getTime(), `${timestamp} within the run`);
}

let reference: RunningAgent;
let typo: RunningAgent;
let quality: RunningAgent;
let tmp: string;

before(async () => {
  [reference, typo, quality] = await Promise.all([
    serveAgent(byName('reference')),
    serveAgent(byName('typo-buttton-on-double-text')),
    serveAgent(WELL_BEHAVED_AGENT.handler(TOKEN)),
  ]);
  tmp = mkdtempSync(join(tmpdir(), 'check-endpoint-junit-'));
});
after(async () => {
  await Promise.all([reference?.close(), typo?.close(), quality?.close()]);
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("JUnit files validate against Jenkins' xUnit schema (junit-10.xsd)", () => {
  test('the validator refuses a file that breaks the schema: a testsuite without its tests count', async () => {
    const errors = await schemaErrors('<testsuites><testsuite name="x" failures="0" errors="0"/></testsuites>', 'broken.xml');
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /testsuite.*attribute 'tests' is required/);
  });

  for (const run of [
    {
      what: 'a passing run on every channel',
      agent: () => reference,
      args: ['--channel', 'all'],
      code: 0,
      cases: CHANNELS.length * FIXED_CASE_IDS.length,
    },
    {
      what: 'a failing run',
      agent: () => typo,
      args: ['--channel', 'whatsapp', '--channel', 'sms'],
      code: 1,
      cases: 2 * FIXED_CASE_IDS.length,
    },
    {
      what: 'a quality run (--quality)',
      agent: () => quality,
      args: ['--quality', '--quality-conversations', '3', '--token-env', TOKEN_ENV],
      code: 0,
      // On one channel (whatsapp, which takes images): every fixed case and every quality case.
      cases: FIXED_CASE_IDS.length + QUALITY_IDS.length,
    },
  ]) {
    test(`${run.what}: valid, and every testsuite carries the start, the host and the run's properties`, async () => {
      const file = join(tmp, `${run.what.replace(/\W+/g, '-')}.xml`);
      const before = new Date();
      const result = await runCli([run.agent().url, ...run.args, '--junit', file], { env: { [TOKEN_ENV]: TOKEN } });
      const after = new Date();
      assert.equal(result.code, run.code, result.stderr);
      const xml = readFileSync(file, 'utf8');
      assert.deepEqual(await schemaErrors(xml, 'junit.xml'), []);
      assert.ok(!xml.includes(TOKEN), 'the token is never written');
      const suites = suitesOf(xml);
      assert.equal(
        suites.reduce((sum, suite) => sum + suite.testcase.length, 0),
        run.cases,
      );
      const channels = suites.map((suite) => suite.name).join(',');
      const runIds = new Set<string>();
      const rulesNamed = new Set<string>();
      for (const suite of suites) {
        assertStartedBetween(suite.timestamp, before, after);
        assert.equal(suite.hostname, '127.0.0.1');
        const properties = propertiesOf(suite);
        // Each rule its findings name: its level, contract section and statement, as the contract's x-rules say them.
        const ruleProperties = Object.entries(properties).filter(([name]) => name.startsWith('rule.'));
        for (const [name, value] of ruleProperties) {
          const facts = bundledContract().rules[name.slice('rule.'.length)];
          assert.ok(facts, name);
          assert.equal(value, `${facts.level} ${facts.section}: ${facts.statement}`);
          rulesNamed.add(name);
        }
        assert.deepEqual(
          { ...Object.fromEntries(Object.entries(properties).filter(([name]) => !name.startsWith('rule.'))), 'run.id': undefined },
          {
            'check-endpoint.version': TOOL_VERSION,
            'contract.version': '1.0',
            'contract.source': 'bundled',
            channels,
            target: run.agent().url,
            'run.id': undefined,
            channel: suite.name,
            'channel.limits': 'spec',
          },
        );
        assert.match(properties['run.id'] ?? '', /^[0-9a-f]{8}$/);
        runIds.add(properties['run.id']!);
      }
      assert.equal(runIds.size, 1, 'one run id for the whole run');
      if (run.code !== 0) assert.ok(rulesNamed.size > 0, 'a failing run names the rules of its findings');
    });
  }

  test('an interrupted run (SIGINT): valid; the cases not run are skipped', async () => {
    let holdNext: () => void = () => {};
    const secondArrived = new Promise<void>((resolve) => (holdNext = resolve));
    const handler = byName('reference');
    const agent = await serveAgent((request, raw) => {
      if (request.message.text.startsWith('hi, what time')) return handler(request, raw);
      holdNext();
      return new Promise(() => {}); // thinks until the run is interrupted
    });
    const controller = new AbortController();
    void secondArrived.then(() => controller.abort('SIGINT'));
    try {
      const startedAt = new Date();
      const report = await checkEndpoint(agent.url, { concurrency: 1, signal: controller.signal });
      assert.equal(report.outcome, 'interrupted');
      const xml = renderJunit(report, { startedAt });
      assert.deepEqual(await schemaErrors(xml, 'interrupted.xml'), []);
      const [suite, ...others] = suitesOf(xml);
      assert.deepEqual(others, []);
      assert.equal(suite!.skipped, '4');
      assert.equal(suite!.timestamp, startedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'));
      assert.deepEqual(
        suite!.testcase.map((testcase) => [testcase.name, testcase.skipped === undefined ? 'ran' : 'skipped']),
        [
          ['whatsapp/typed', 'ran'],
          ['whatsapp/double-text', 'skipped'],
          ['whatsapp/photo', 'skipped'],
          ['whatsapp/button-tap', 'skipped'],
          ['whatsapp/no-reply', 'skipped'],
        ],
      );
    } finally {
      await agent.close();
    }
  });

  test('a run that could not start (nothing listening): valid; its one error suite has the start and host, and no run id', async () => {
    const file = join(tmp, 'unreachable.xml');
    const url = `http://127.0.0.1:${await closedPort()}/agent`;
    const result = await runCli([url, '--junit', file]);
    assert.equal(result.code, 2);
    const xml = readFileSync(file, 'utf8');
    assert.deepEqual(await schemaErrors(xml, 'unreachable.xml'), []);
    const [suite, ...others] = suitesOf(xml);
    assert.deepEqual(others, []);
    assert.equal(suite!.name, 'check-endpoint');
    assert.equal(suite!.hostname, '127.0.0.1');
    assert.match(suite!.timestamp ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const properties = propertiesOf(suite!);
    assert.equal(properties.channels, 'whatsapp');
    assert.equal(properties['run.id'], undefined, 'a run that never started has no id');
  });
});
