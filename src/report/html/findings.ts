import type { ReportedFinding } from '../../core/report.js';
import { type Markup, h } from './markup.js';
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

function renderFinding(finding: ReportedFinding): Markup {
  const error = finding.severity === 'error';
  const pointer = finding.path === '' ? '(body)' : finding.path;
  return h`<li class="finding ${error ? 'error' : 'warning'}" data-rule="${finding.rule}" data-pointer="${finding.path}">
    <p class="finding-head">
      <span class="severity"><span aria-hidden="true">${error ? '✗' : '!'}</span> ${error ? 'error' : 'warning'}</span>
      <span class="label">rule</span> <a class="rule-link" href="#${ruleAnchor(finding.rule)}"><code class="rule">${finding.rule}</code></a> <span class="label">at</span>
      <code class="pointer">${cut(pointer)}</code>
    </p>
    <p class="finding-message">${cut(finding.message)}</p>
    ${finding.hint ? h`<p class="finding-hint"><span class="label">Fix:</span> ${cut(finding.hint)}</p>` : ''}
  </li>`;
}

/** A list of findings, errors first; empty markup when there are none. */
export function renderFindings(findings: readonly ReportedFinding[], label: string): Markup | '' {
  if (findings.length === 0) return '';
  const shown = ordered(findings).slice(0, MAX_FINDINGS);
  const more = findings.length - shown.length;
  return h`<ul class="findings" aria-label="${label}">
    ${shown.map(renderFinding)}${
      more > 0 ? h`<li class="finding more">${count(more)} more findings are not shown here; the JSON report has them all.</li>` : ''
    }
  </ul>`;
}
