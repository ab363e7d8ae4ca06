import { findingRules } from '../core/findings.js';
import { SCENARIO_CASE_PREFIX } from '../core/ids.js';
import type { CaseReport, Report, ReportedFinding } from '../core/report.js';
import { turnOf, valueShown } from '../core/value-at.js';

/** Text made safe for XML 1.0: characters XML cannot hold are dropped, markup is escaped. */
export function xmlText(value: string): string {
  return value
    .replace(/[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function describe(finding: ReportedFinding, caseReport: CaseReport): string {
  const play = finding.plays === undefined ? '' : ` (in ${finding.plays} plays, first in play ${finding.play})`;
  const turn = finding.turn === null ? '' : ` (turn ${finding.turn + 1})`;
  const lines = [`[${finding.rule}] ${finding.path || '(body)'}${turn}${play}: ${finding.message}`];
  const value = valueShown(answerOf(finding, caseReport), finding.path);
  if (value !== undefined) lines.push(`  value: ${value}`);
  if (finding.hint) lines.push(`  hint: ${finding.hint}`);
  // The distinct problem it is one of (the JSON report's `problems`), the same id on every case it came in.
  if (finding.problem) lines.push(`  problem: ${finding.problem}`);
  if (finding.reproduce) lines.push(`  reproduce: ${finding.reproduce}`);
  return lines.join('\n');
}

/** The answer a finding is about: its turn's, of its play. */
function answerOf(finding: ReportedFinding, caseReport: CaseReport): unknown {
  return turnOf(caseReport, finding.turn, finding.play)?.answer;
}

/** A failure in JUnit's terms: failed and not expected by the baseline (a case not run is skipped). */
function isFailure(caseReport: CaseReport): boolean {
  return caseReport.status === 'failed' && !caseReport.expected;
}

/** With several plays, which failed: `2 of 5 plays failed (plays 2, 4); `. */
function failedPlays(caseReport: CaseReport): string {
  if (caseReport.runs === 1) return '';
  const failed = caseReport.plays.filter((play) => play.status !== 'passed').map((play) => play.play);
  return `${failed.length} of ${caseReport.runs} plays failed (${failed.length === 1 ? 'play' : 'plays'} ${failed.join(', ')}); `;
}

/** What a JUnit file says of the run beyond the report: when it started (the command knows; the report does not). */
export interface JunitRun {
  startedAt: Date;
}

/** `2025-03-01T09:30:05Z`: ISO 8601 in UTC, to the second, as JUnit's timestamps are. */
function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The target's host name (a URL with credentials is refused before any run), or the target itself if it is no URL. */
function hostnameOf(target: string): string {
  try {
    return new URL(target).hostname;
  } catch {
    return target;
  }
}

/**
 * The run's id, where the report's conversation ids carry it (core/ids.ts writes them as
 * `channel:chk_<run id>.<case>.<n>`) and all agree; a run that never started has none.
 */
function runIdOf(report: Report): string | undefined {
  const ids = new Set(report.cases.map((caseReport) => /^[^:]*:chk_([0-9a-f]+)\./.exec(caseReport.conversationId)?.[1]));
  const [id] = ids;
  return ids.size === 1 ? id : undefined;
}

/** The attributes and properties every testsuite carries: when, against which host, with which tool, contract and channels. */
function suiteContext(report: Report, run: JunitRun): { attributes: string; properties: (extra?: Record<string, string>) => string } {
  const attributes = `timestamp="${isoSeconds(run.startedAt)}" hostname="${xmlText(hostnameOf(report.target))}"`;
  const runId = runIdOf(report);
  const common: Record<string, string> = {
    'check-endpoint.version': report.tool.version,
    'contract.version': report.spec.version,
    'contract.source': report.spec.source,
    channels: report.channels.map((channel) => channel.name).join(','),
    target: report.target,
    ...(runId !== undefined ? { 'run.id': runId } : {}),
  };
  const properties = (extra: Record<string, string> = {}): string =>
    [
      '    <properties>',
      ...Object.entries({ ...common, ...extra }).map(
        ([name, value]) => `      <property name="${xmlText(name)}" value="${xmlText(value)}"/>`,
      ),
      '    </properties>',
    ].join('\n');
  return { attributes, properties };
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** A team scenario's case (`scenario/latte-correction`): reported in the "scenarios" testsuite, not its channel's. */
function isScenarioCase(caseReport: CaseReport): boolean {
  return caseReport.id.startsWith(SCENARIO_CASE_PREFIX);
}

/** explore's failures, each as its smallest conversation: numbered steps and the replay line. */
function exploredConversations(caseReport: CaseReport): string[] {
  return (caseReport.explore?.found ?? []).flatMap((failure) => [
    '',
    `${failure.title}: its smallest conversation, ${failure.steps.length} message(s):`,
    ...failure.described.map((step, index) => `  ${index + 1}. ${step}`),
    ...(failure.replay ? [`replay: ${failure.replay}`] : []),
  ]);
}

function testcase(caseReport: CaseReport): string {
  const scenario = isScenarioCase(caseReport);
  const name = scenario
    ? `${caseReport.id.slice(SCENARIO_CASE_PREFIX.length)} on ${caseReport.channel}`
    : `${caseReport.channel}/${caseReport.id}`;
  const classname = scenario ? 'check-endpoint.scenarios' : `check-endpoint.${caseReport.channel}`;
  const errors = caseReport.findings.filter((finding) => finding.severity === 'error');
  const warnings = caseReport.findings.filter((finding) => finding.severity === 'warning');
  const parts = [`    <testcase classname="${xmlText(classname)}" name="${xmlText(name)}" time="${seconds(caseReport.durationMs)}">`];
  if (caseReport.status === 'not-run') {
    parts.push(`      <skipped message="not run: it did not finish before the run stopped"/>`);
  } else if (!caseReport.passed && caseReport.expected) {
    parts.push(`      <skipped message="expected failure (listed in the baseline)"/>`);
  } else if (!caseReport.passed) {
    const failing = errors.length > 0 ? errors : warnings;
    const rules = [...new Set(failing.flatMap(findingRules))].join(', ');
    parts.push(
      `      <failure message="${xmlText(`${failedPlays(caseReport)}${failing.length} finding(s): ${rules}`)}" type="${xmlText(rules)}">${xmlText([...failing.map((finding) => describe(finding, caseReport)), ...exploredConversations(caseReport)].join('\n'))}</failure>`,
    );
  }
  if (warnings.length > 0)
    parts.push(
      `      <system-out>${xmlText(warnings.map((finding) => `warning ${describe(finding, caseReport)}`).join('\n'))}</system-out>`,
    );
  parts.push('    </testcase>');
  return parts.join('\n');
}

/**
 * A property per rule the cases' findings name: `rule.schema` is its level, the contract's section
 * that states it, and the requirement (`must https://…#answer-body: The answer body matches …`).
 */
function ruleProperties(report: Report, cases: readonly CaseReport[]): Record<string, string> {
  const named = [...new Set(cases.flatMap((caseReport) => caseReport.findings.flatMap(findingRules)))];
  return Object.fromEntries(
    named.flatMap((rule) => {
      const facts = Object.hasOwn(report.rules, rule) ? report.rules[rule] : undefined;
      return facts ? [[`rule.${rule}`, `${facts.level}${facts.section ? ` ${facts.section}` : ''}: ${facts.statement}`]] : [];
    }),
  );
}

/** The "scenarios" testsuite: each team scenario's opening on each of its channels, and each scenario file with a problem, as a failure. */
function scenarioSuite(report: Report, context: ReturnType<typeof suiteContext>): string {
  const cases = report.cases.filter(isScenarioCase);
  const invalid = report.scenarios!.files.filter((file) => file.status === 'invalid');
  const failures = cases.filter(isFailure).length + invalid.length;
  const skipped = cases.filter((caseReport) => !isFailure(caseReport) && !caseReport.passed).length;
  const time = cases.reduce((sum, caseReport) => sum + caseReport.durationMs, 0);
  return [
    `  <testsuite name="scenarios" tests="${cases.length + invalid.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(time)}" ${context.attributes}>`,
    context.properties({ scenarios: report.scenarios!.folder ?? 'given as objects', ...ruleProperties(report, cases) }),
    ...cases.map(testcase),
    ...invalid.map((file) => {
      const problems = file.problems.map(
        (problem) =>
          `${problem.line > 0 ? `${problem.file}:${problem.line}:${problem.column}` : problem.file} ${problem.pointer} ${problem.message} (${problem.fix})`,
      );
      return `    <testcase classname="check-endpoint.scenarios" name="${xmlText(file.file)}"><failure message="${xmlText(`${file.problems.length} problem(s) in the scenario file: not played`)}" type="scenario-file">${xmlText(problems.join('\n'))}</failure></testcase>`;
    }),
    '  </testsuite>',
  ].join('\n');
}

/**
 * The report as JUnit XML: one testsuite per channel, one testcase per case named `channel/case`,
 * a failure per failed case carrying each finding's rule, message and JSON pointer, warnings in
 * system-out, a failure the baseline expects as skipped, a case not run as skipped. Every
 * testsuite carries the run's start, the target's host name and the run's properties, and what each
 * rule its findings name requires (`rule.ID`: level, contract section, statement); the team's
 * scenarios (--scenarios) in a testsuite "scenarios" of their own. It holds to
 * the JUnit schema of Jenkins' xUnit plugin (test/xsd/junit-10.xsd).
 */
export function renderJunit(report: Report, run: JunitRun): string {
  const context = suiteContext(report, run);
  const limitsOf = new Map(report.channels.map((channel) => [channel.name, channel.limits]));
  const fixed = report.cases.filter((caseReport) => !isScenarioCase(caseReport));
  const channels = [...new Set(fixed.map((caseReport) => caseReport.channel))];
  const suites = channels.map((channel) => {
    const cases = fixed.filter((caseReport) => caseReport.channel === channel);
    const failures = cases.filter(isFailure).length;
    const skipped = cases.filter((caseReport) => !isFailure(caseReport) && !caseReport.passed).length;
    const time = cases.reduce((sum, caseReport) => sum + caseReport.durationMs, 0);
    return [
      `  <testsuite name="${xmlText(channel)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(time)}" ${context.attributes}>`,
      context.properties({ channel, 'channel.limits': limitsOf.get(channel) ?? 'none', ...ruleProperties(report, cases) }),
      ...cases.map(testcase),
      '  </testsuite>',
    ].join('\n');
  });
  const invalid = report.scenarios?.files.filter((file) => file.status === 'invalid') ?? [];
  const tests = report.cases.length + invalid.length;
  const failures = report.cases.filter(isFailure).length + invalid.length;
  const errorSuite =
    report.outcome === 'error'
      ? [
          `  <testsuite name="check-endpoint" tests="1" failures="0" errors="1" ${context.attributes}>`,
          context.properties(),
          `    <testcase classname="check-endpoint" name="run"><error message="${xmlText(report.error?.message ?? 'the check could not run')}"/></testcase>`,
          '  </testsuite>',
        ].join('\n')
      : undefined;
  const staleSuite = report.baseline?.stale.length
    ? [
        `  <testsuite name="baseline" tests="${report.baseline.stale.length}" failures="${report.baseline.stale.length}" errors="0" ${context.attributes}>`,
        context.properties({ baseline: report.baseline.file }),
        ...report.baseline.stale.map(
          (entry) =>
            `    <testcase classname="check-endpoint.baseline" name="${xmlText(entry)}"><failure message="stale baseline entry" type="baseline">${xmlText(`"${entry}" is listed as an expected failure but it passed: remove it from ${report.baseline!.file}.`)}</failure></testcase>`,
        ),
        '  </testsuite>',
      ].join('\n')
    : undefined;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="check-endpoint ${xmlText(report.target)}" tests="${tests}" failures="${failures}" errors="${report.outcome === 'error' ? 1 : 0}">`,
    ...suites,
    ...(report.scenarios ? [scenarioSuite(report, context)] : []),
    ...(errorSuite ? [errorSuite] : []),
    ...(staleSuite ? [staleSuite] : []),
    '</testsuites>',
    '',
  ].join('\n');
}
