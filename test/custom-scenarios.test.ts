/**
 * Cases of your own (defineScenario, the `scenarios` option), run against the reference agent:
 * each turn judged by the common checks, the case's own expectations under its own rules, its own
 * setting given as an option, and all of it reported by id in the JSON report (valid against
 * spec/report.schema.json), the JUnit file and the HTML page. And every rule is traceable: the
 * contract's x-rules states each rule a built-in finding can name, with its level and section.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createAjv } from '../src/contract/ajv.js';
import type { RunningAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { RULES, bundledContract, checkEndpoint, defineScenario } from '../src/index.js';
import { renderHtmlReport } from '../src/report/html.js';
import { renderJunit } from '../src/report/junit.js';
import { ALL_RULE_IDS } from '../src/cases/registry.js';
import { ROOT } from './helpers.js';

const validateReport = createAjv().compile(JSON.parse(readFileSync(join(ROOT, 'spec/report.schema.json'), 'utf8')));

/** Asks the opening hours `greetingTurns` times (a setting of its own); expects the hours in each answer. */
const openingHours = defineScenario({
  id: 'acme/opening-hours',
  description: 'Asked when it opens, the agent says the hours.',
  rules: [{ id: 'acme/says-hours', level: 'must', statement: 'An answer to "when are you open" names the hours.' }],
  settings: {
    greetingTurns: { flag: 'greeting-turns', placeholder: 'N', description: 'Questions asked', default: 1, integer: true },
  },
  async run(context) {
    for (let turn = 0; turn < context.setting('greetingTurns'); turn++) {
      const sent = await context.send({ text: 'hi, what time are you open today?' });
      const text = sent.replies?.map((reply) => ('text' in reply ? (reply.text ?? '') : '')).join(' ') ?? '';
      context.expect(/\d/.test(text), { rule: 'acme/says-hours', message: `expected the hours; got ${JSON.stringify(text)}` });
    }
  },
});

/** Expects what the reference agent never says: its own rule fails, nothing else does. */
const wantsPirate = defineScenario({
  id: 'acme/pirate',
  description: 'The agent talks like a pirate.',
  rules: [
    {
      id: 'acme/pirate-voice',
      level: 'should',
      section: 'https://acme.example/house-style#voice',
      statement: 'Every answer says arr.',
    },
  ],
  async run(context) {
    const sent = await context.send({ text: 'hello there' });
    const said = JSON.stringify(sent.replies ?? []);
    context.expect(said.includes('arr'), {
      rule: 'acme/pirate-voice',
      message: 'expected "arr" in the answer',
      severity: 'warning',
    });
    return {
      findings: said.includes('Arr!')
        ? []
        : [{ rule: 'acme/pirate-voice', severity: 'error', message: 'no Arr!', path: '', hint: 'Say Arr!' }],
    };
  },
});

let agent: RunningAgent;
before(async () => {
  agent = await startReferenceAgent();
});
after(() => agent.close());

describe('cases of your own', () => {
  test('beside the fixed cases: reported by id on every channel, judged by the common checks, with its own rule', async () => {
    const report = await checkEndpoint(agent.url, { channels: ['whatsapp', 'sms'], scenarios: [openingHours] });
    assert.ok(validateReport(report), JSON.stringify(validateReport.errors));
    const ids = ['typed', 'double-text', 'photo', 'button-tap', 'no-reply', 'acme/opening-hours'];
    assert.deepEqual(
      report.cases.map((caseReport) => `${caseReport.channel}/${caseReport.id}`),
      ['whatsapp', 'sms'].flatMap((channel) => ids.map((id) => `${channel}/${id}`)),
    );
    const own = report.cases.filter((caseReport) => caseReport.id === 'acme/opening-hours');
    assert.equal(own.length, 2);
    for (const caseReport of own) {
      assert.equal(caseReport.passed, true, JSON.stringify(caseReport.findings));
      assert.equal(caseReport.plays[0]!.turns.length, 1);
      assert.match(caseReport.conversationId, /\.acme-opening-hours\.1$/);
    }
    assert.equal(report.outcome, 'passed');
    assert.deepEqual(report.rules['acme/says-hours'], {
      level: 'must',
      section: null,
      statement: 'An answer to "when are you open" names the hours.',
    });
  });

  test('instead of them (cases names it), its setting given as an option', async () => {
    const setting = { greetingTurns: 3 };
    const report = await checkEndpoint(agent.url, { scenarios: [openingHours], cases: ['acme/opening-hours'], ...setting });
    assert.deepEqual(
      report.cases.map((caseReport) => caseReport.id),
      ['acme/opening-hours'],
    );
    assert.equal(report.cases[0]!.plays[0]!.turns.length, 3);
    await assert.rejects(
      checkEndpoint(agent.url, { scenarios: [openingHours], cases: ['acme/opening-hours'], ...{ greetingTurns: 0 } }),
      /^OptionError: greetingTurns must be a positive whole number; got 0$/,
    );
  });

  test('its failing expectations fail it, under its rule, in every report format', async () => {
    const report = await checkEndpoint(agent.url, { scenarios: [wantsPirate], cases: ['typed', 'acme/pirate'] });
    assert.ok(validateReport(report), JSON.stringify(validateReport.errors));
    const [typed, pirate] = report.cases;
    assert.equal(typed!.passed, true, 'the fixed case is untouched');
    assert.equal(pirate!.passed, false);
    assert.deepEqual(
      pirate!.findings.map((finding) => [finding.rule, finding.severity, finding.turn]),
      [
        ['acme/pirate-voice', 'warning', null],
        ['acme/pirate-voice', 'error', null],
      ],
    );
    assert.equal(report.exitCode, 1);
    assert.equal(report.rules['acme/pirate-voice']?.section, 'https://acme.example/house-style#voice');
    const junit = renderJunit(report, { startedAt: new Date(0) });
    assert.match(junit, /<testcase classname="check-endpoint\.whatsapp" name="whatsapp\/acme\/pirate"/);
    assert.match(
      junit,
      /<property name="rule\.acme\/pirate-voice" value="should https:\/\/acme\.example\/house-style#voice: Every answer says arr\."\/>/,
    );
    const page = renderHtmlReport(report);
    assert.match(page, /data-rule="acme\/pirate-voice"/);
    assert.match(page, /id="rule-[^"]*pirate-voice"/);
  });

  test('a finding under a rule the case does not declare stops the run, naming the case and rule', async () => {
    const sloppy = defineScenario({
      id: 'acme/sloppy',
      description: 'Names a rule it does not declare.',
      async run(context) {
        await context.send({ text: 'hi' });
        context.expect(false, { rule: 'undeclared', message: 'never' });
      },
    });
    await assert.rejects(checkEndpoint(agent.url, { scenarios: [sloppy], cases: ['acme/sloppy'] }), /acme\/sloppy: .*"undeclared"/);
  });

  test('a definition or a list that cannot be run is refused before anything is sent', async () => {
    assert.throws(() => defineScenario({ id: 'Acme Case', description: 'x', run: async () => {} }), TypeError);
    assert.throws(
      () => defineScenario({ id: 'acme/x', description: 'x', rules: [{ id: 'r' }], run: async () => {} }),
      /rule r needs a level/,
    );
    await assert.rejects(
      checkEndpoint('http://127.0.0.1:1/agent', { scenarios: [defineScenario({ id: 'typed', description: 'x', run: async () => {} })] }),
      /two cases are called "typed"/,
    );
    await assert.rejects(checkEndpoint('http://127.0.0.1:1/agent', { cases: ['acme/nope'] }), /"acme\/nope" is not a case/);
  });
});

describe('every rule is traceable to the contract', () => {
  test("x-rules states each rule a built-in finding can name, and no other, each with a level and the contract's section", () => {
    const { rules } = bundledContract();
    assert.deepEqual(Object.keys(rules).sort(), [...ALL_RULE_IDS].sort());
    for (const id of ALL_RULE_IDS) {
      assert.match(rules[id]!.level, /^(must|should)$/, id);
      assert.match(rules[id]!.section, /^https:\/\/check-endpoint\.dev\/spec\/1\.0\/contract#[a-z-]+$/, id);
    }
    assert.ok(RULES.every((rule) => ALL_RULE_IDS.includes(rule)));
  });

  test("a report states the rules of its cases: the common checks', and the chosen cases' own", async () => {
    const report = await checkEndpoint(agent.url, { cases: ['typed', 'quality/retry'] });
    assert.deepEqual(Object.keys(report.rules), [...RULES, 'retry']);
    assert.deepEqual(report.rules.status, bundledContract().rules.status);
  });
});
