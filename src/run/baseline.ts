/**
 * Expected failures (--baseline): a team adopts the check gradually. A failed case whose every
 * failing finding an entry lists does not fail the run; an entry that lists nothing failing,
 * although its case ran, is stale and fails the run, so the list can only shrink.
 */
import { type RuleId, findingRules } from '../core/findings.js';
import { CHANNEL_NAME } from '../core/ids.js';
import type { BaselineOutcome, CaseReport } from '../core/report.js';
import { UsageError } from '../core/usage-error.js';
import { ALL_RULE_IDS, CASES } from '../cases/registry.js';
import { failsCase } from './verdict.js';

/** One expected failure: `case`, `case:rule`, `channel/case` or `channel/case:rule`. */
export interface BaselineEntry {
  text: string;
  channel?: string;
  case: string;
  rule?: RuleId;
}

/** The case ids and rule ids an entry may name. */
export interface KnownIds {
  cases: readonly string[];
  rules: readonly string[];
}

/** The built-in cases and rules. */
const BUILT_IN_IDS: KnownIds = { cases: CASES.map((testCase) => testCase.id), rules: ALL_RULE_IDS };

function parseEntry(text: string, where: string, known: KnownIds): BaselineEntry {
  const [subject = '', rule, ...extra] = text.split(':');
  const bad = (why: string): never => {
    throw new UsageError(`${where}: "${text}" is not a baseline entry (${why}); write case, case:rule, channel/case or channel/case:rule`);
  };
  if (extra.length > 0) bad('more than one ":"');
  if (rule !== undefined && !known.rules.includes(rule)) bad(`unknown rule "${rule}"; the rules are ${known.rules.join(', ')}`);
  // A case id may hold a "/" itself (quality/auth): the longest known case at the end wins.
  const caseId = known.cases.find((known) => subject === known) ?? known.cases.find((known) => subject.endsWith(`/${known}`));
  if (caseId === undefined) return bad(`no known case; the cases are ${known.cases.join(', ')}`);
  const channel = subject === caseId ? undefined : subject.slice(0, -caseId.length - 1);
  if (channel !== undefined && !CHANNEL_NAME.test(channel)) bad(`"${channel}" is not a channel name`);
  return {
    text,
    case: caseId,
    ...(channel !== undefined ? { channel } : {}),
    ...(rule !== undefined ? { rule } : {}),
  };
}

/** Reads a baseline file's text: one entry a line; blank lines and lines starting with # are skipped. */
export function parseBaseline(text: string, file: string, known: KnownIds = BUILT_IN_IDS): BaselineEntry[] {
  return text
    .split(/\r?\n/)
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line !== '' && !line.startsWith('#'))
    .map(({ line, number }) => parseEntry(line, `${file}:${number}`, known));
}

function covers(entry: BaselineEntry, caseReport: CaseReport): boolean {
  return entry.case === caseReport.id && (entry.channel === undefined || entry.channel === caseReport.channel);
}

/** The entries that list each failing finding of a failed case; undefined when one is not listed. */
function listingEntries(caseReport: CaseReport, entries: readonly BaselineEntry[], strict: boolean): BaselineEntry[] | undefined {
  if (caseReport.passed) return undefined;
  const failing = caseReport.findings.filter((finding) => failsCase(finding, strict));
  const listing: BaselineEntry[] = [];
  // The left-out note stands for the rules it left out: each must be listed.
  for (const rule of failing.flatMap(findingRules)) {
    const entry = entries.find((candidate) => covers(candidate, caseReport) && (candidate.rule === undefined || candidate.rule === rule));
    if (!entry) return undefined;
    listing.push(entry);
  }
  return failing.length > 0 ? listing : undefined;
}

/** Whether a failed case is an expected failure: the baseline lists every one of its failing findings. */
export function isExpectedFailure(caseReport: CaseReport, entries: readonly BaselineEntry[], strict: boolean): boolean {
  return listingEntries(caseReport, entries, strict) !== undefined;
}

/** What the baseline did over the run's cases: the entries that matched, the stale ones, the unchecked ones. */
export function baselineOutcome(
  cases: readonly CaseReport[],
  entries: readonly BaselineEntry[],
  file: string,
  strict: boolean,
): BaselineOutcome {
  const matched = new Set(cases.flatMap((caseReport) => listingEntries(caseReport, entries, strict) ?? []));
  const unchecked = entries.filter((entry) => !cases.some((caseReport) => covers(entry, caseReport)));
  const stale = entries.filter((entry) => !matched.has(entry) && !unchecked.includes(entry));
  return {
    file,
    entries: entries.map((entry) => entry.text),
    matched: entries.filter((entry) => matched.has(entry)).map((entry) => entry.text),
    stale: stale.map((entry) => entry.text),
    unchecked: unchecked.map((entry) => entry.text),
  };
}
