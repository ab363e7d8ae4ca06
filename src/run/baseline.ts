import { CASE_IDS } from '../cases/fixed-cases.js';
import { RULES, type Rule } from '../core/findings.js';
import { QUALITY_CASE_IDS } from '../quality/quality-context.js';
import { CHANNEL_NAME } from '../core/ids.js';
import { UsageError } from '../core/usage-error.js';
import type { BaselineOutcome, CaseReport, Report, ReportedFinding } from '../core/report.js';

/** One expected failure: `case`, `case:rule`, `channel/case` or `channel/case:rule`. */
export interface BaselineEntry {
  text: string;
  channel?: string;
  case: string;
  rule?: Rule;
}

const KNOWN_CASES: readonly string[] = [...CASE_IDS, ...QUALITY_CASE_IDS];

function parseEntry(text: string, where: string): BaselineEntry {
  const [subject = '', rule, ...extra] = text.split(':');
  const bad = (why: string): never => {
    throw new UsageError(`${where}: "${text}" is not a baseline entry (${why}); write case, case:rule, channel/case or channel/case:rule`);
  };
  if (extra.length > 0) bad('more than one ":"');
  if (rule !== undefined && !(RULES as readonly string[]).includes(rule)) bad(`unknown rule "${rule}"; the rules are ${RULES.join(', ')}`);
  // A case id may hold a "/" itself (quality/auth): the longest known case at the end wins.
  const caseId = KNOWN_CASES.find((known) => subject === known) ?? KNOWN_CASES.find((known) => subject.endsWith(`/${known}`));
  if (caseId === undefined) return bad(`no known case; the cases are ${KNOWN_CASES.join(', ')}`);
  const channel = subject === caseId ? undefined : subject.slice(0, -caseId.length - 1);
  if (channel !== undefined && !CHANNEL_NAME.test(channel)) bad(`"${channel}" is not a channel name`);
  return { text, case: caseId, ...(channel !== undefined ? { channel } : {}), ...(rule !== undefined ? { rule: rule as Rule } : {}) };
}

/** Reads a baseline file's text: one entry a line; blank lines and lines starting with # are skipped. */
export function parseBaseline(text: string, file: string): BaselineEntry[] {
  return text
    .split(/\r?\n/)
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line !== '' && !line.startsWith('#'))
    .map(({ line, number }) => parseEntry(line, `${file}:${number}`));
}

function covers(entry: BaselineEntry, caseReport: CaseReport): boolean {
  return entry.case === caseReport.id && (entry.channel === undefined || entry.channel === caseReport.channel);
}

/** The findings that fail a case: its errors, and under --strict its warnings too. */
function failing(caseReport: CaseReport, strict: boolean): ReportedFinding[] {
  return caseReport.findings.filter((finding) => finding.severity === 'error' || strict);
}

/** The entries that list each failing finding of a failed case; undefined when one is not listed. */
function listingEntries(caseReport: CaseReport, entries: readonly BaselineEntry[], strict: boolean): BaselineEntry[] | undefined {
  if (caseReport.passed) return undefined;
  const findings = failing(caseReport, strict);
  const listing: BaselineEntry[] = [];
  for (const finding of findings) {
    const entry = entries.find(
      (candidate) => covers(candidate, caseReport) && (candidate.rule === undefined || candidate.rule === finding.rule),
    );
    if (!entry) return undefined;
    listing.push(entry);
  }
  return findings.length > 0 ? listing : undefined;
}

/** Whether a failed case is an expected failure: the baseline lists every one of its failing findings. */
export function isExpectedFailure(caseReport: CaseReport, entries: readonly BaselineEntry[], strict: boolean): boolean {
  return listingEntries(caseReport, entries, strict) !== undefined;
}

/**
 * Applies a baseline: a failed case whose every failing finding an entry lists is expected and
 * does not fail the run; an entry that lists nothing failing, although its case ran, is stale and
 * fails the run, so the list can only shrink.
 */
export function applyBaseline(report: Report, entries: readonly BaselineEntry[], file: string, strict: boolean): Report {
  const matched = new Set<BaselineEntry>();
  const cases = report.cases.map((caseReport) => {
    const listing = listingEntries(caseReport, entries, strict);
    for (const entry of listing ?? []) matched.add(entry);
    return { ...caseReport, expected: listing !== undefined };
  });
  const unchecked = entries.filter((entry) => !report.cases.some((caseReport) => covers(entry, caseReport)));
  const stale = entries.filter((entry) => !matched.has(entry) && !unchecked.includes(entry));
  const outcome: BaselineOutcome = {
    file,
    entries: entries.map((entry) => entry.text),
    matched: entries.filter((entry) => matched.has(entry)).map((entry) => entry.text),
    stale: stale.map((entry) => entry.text),
    unchecked: unchecked.map((entry) => entry.text),
  };
  const failed = cases.some((caseReport) => !caseReport.passed && !caseReport.expected) || stale.length > 0;
  return { ...report, cases, baseline: outcome, outcome: failed ? 'failed' : 'passed', exitCode: failed ? 1 : 0 };
}

/** Today's failures as a baseline file: one `channel/case:rule` line for each rule that fails each case. */
export function writeBaseline(report: Report, strict: boolean): string {
  const lines = new Set<string>();
  for (const caseReport of report.cases) {
    if (caseReport.passed) continue;
    for (const finding of failing(caseReport, strict)) lines.add(`${caseReport.channel}/${caseReport.id}:${finding.rule}`);
  }
  return [
    `# check-endpoint baseline: expected failures, one a line (case, case:rule, channel/case or channel/case:rule).`,
    `# Written from a run against ${report.target}. Remove a line once it passes: a stale line fails the run.`,
    ...[...lines].sort(),
    '',
  ].join('\n');
}
