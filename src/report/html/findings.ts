import type { ProblemReport, ReportedFinding } from '../../core/report.js';
import { type Markup, h } from './markup.js';
import { withCode } from './hint-text.js';
import { ruleAnchor } from './rules.js';
import { clip, count } from './values.js';

/** Findings drawn per group at most; a hostile answer may bring thousands. */
const MAX_FINDINGS = 30;
const MAX_MESSAGE = 2000;

/** Errors first, then warnings, each in the order found. */
export function ordered(findings: readonly ReportedFinding[]): ReportedFinding[] {
  return [...findings.filter((finding) => finding.severity === 'error'), ...findings.filter((finding) => finding.severity !== 'error')];
}

export function hasError(findings: readonly ReportedFinding[]): boolean {
  return findings.some((finding) => finding.severity === 'error');
}

function cut(text: string): string {
  const { shown, hidden } = clip(text, MAX_MESSAGE);
  return hidden ? `${shown}… (${count(hidden)} more characters)` : shown;
}

/** Where findings are drawn, for telling a problem's first finding from its repeats: the run's problems, and which case, channel and play. */
export interface FindingPlace {
  problems: ReadonlyMap<string, ProblemReport>;
  caseId: string;
  channel: string;
  /** The play drawn, from 1. */
  play: number;
}

/** The anchor of a problem's entry in "What to fix". */
export function problemAnchor(problem: Pick<ProblemReport, 'number'>): string {
  return `problem-${problem.number}`;
}

/** The problem a finding repeats: one of several findings, and not the problem's example (its first). */
export function repeatedProblem(finding: ReportedFinding, place: FindingPlace | undefined): ProblemReport | undefined {
  const problem = finding.problem === undefined ? undefined : place?.problems.get(finding.problem);
  if (!problem || !place || problem.findings < 2) return undefined;
  const { example } = problem;
  const first =
    example.case === place.caseId &&
    example.channel === place.channel &&
    (example.play ?? 1) === place.play &&
    example.turn === finding.turn &&
    example.path === finding.path;
  return first ? undefined : problem;
}

/** A repeat of a problem said before: one line, its message and hint folded under it. */
function renderRepeat(finding: ReportedFinding, problem: ProblemReport): Markup {
  const error = finding.severity === 'error';
  const pointer = finding.path === '' ? '(body)' : finding.path;
  return h`<li class="finding ${error ? 'error' : 'warning'} repeat" data-rule="${finding.rule}" data-pointer="${finding.path}">
    <details>
      <summary>
        <span class="severity"><span aria-hidden="true">${error ? '✗' : '!'}</span> ${error ? 'error' : 'warning'}</span>
        <code class="rule">${finding.rule}</code> <span class="label">at</span> <code class="pointer">${cut(pointer)}</code> ·
        problem ${problem.number}
      </summary>
      <p class="finding-message">${cut(finding.message)}</p>
      ${finding.hint ? h`<p class="finding-hint"><span class="label">Fix:</span> ${withCode(cut(finding.hint))}</p>` : ''}
      <p class="finding-hint"><a href="#${problemAnchor(problem)}">Problem ${problem.number} in What to fix</a></p>
    </details>
  </li>`;
}

function renderFinding(finding: ReportedFinding, place?: FindingPlace): Markup {
  const repeated = repeatedProblem(finding, place);
  if (repeated) return renderRepeat(finding, repeated);
  const error = finding.severity === 'error';
  const pointer = finding.path === '' ? '(body)' : finding.path;
  return h`<li class="finding ${error ? 'error' : 'warning'}" data-rule="${finding.rule}" data-pointer="${finding.path}">
    <p class="finding-head">
      <span class="severity"><span aria-hidden="true">${error ? '✗' : '!'}</span> ${error ? 'error' : 'warning'}</span>
      <span class="label">rule</span> <a class="rule-link" href="#${ruleAnchor(finding.rule)}"><code class="rule">${finding.rule}</code></a> <span class="label">at</span>
      <code class="pointer">${cut(pointer)}</code>
    </p>
    <p class="finding-message">${cut(finding.message)}</p>
    ${finding.hint ? h`<p class="finding-hint"><span class="label">Fix:</span> ${withCode(cut(finding.hint))}</p>` : ''}
  </li>`;
}

/**
 * A list of findings, errors first; empty markup when there are none. Given where they are drawn,
 * a finding that repeats a problem drawn before is folded to one line (its first is drawn whole).
 */
export function renderFindings(findings: readonly ReportedFinding[], label: string, place?: FindingPlace): Markup | '' {
  if (findings.length === 0) return '';
  const shown = ordered(findings).slice(0, MAX_FINDINGS);
  const more = findings.length - shown.length;
  return h`<ul class="findings" aria-label="${label}">
    ${shown.map((finding) => renderFinding(finding, place))}${
      more > 0 ? h`<li class="finding more">${count(more)} more findings are not shown here; the JSON report has them all.</li>` : ''
    }
  </ul>`;
}
