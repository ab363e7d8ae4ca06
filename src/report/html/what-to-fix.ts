import type { ProblemReport, Report } from '../../core/report.js';
import { digestTitle } from '../digest.js';
import type { CaseAnchor } from './conversation.js';
import { problemAnchor } from './findings.js';
import { type Markup, h } from './markup.js';
import { withCode } from './hint-text.js';
import { ruleAnchor } from './rules.js';
import { clip, count, plural } from './values.js';

/** Conversations linked per problem at most; a run of many channels and cases counts the rest. */
const MAX_LINKS = 60;
const MAX_TEXT = 2000;

function cut(text: string): string {
  const { shown, hidden } = clip(text, MAX_TEXT);
  return hidden ? `${shown}…` : shown;
}

function renderProblem(problem: ProblemReport, anchors: ReadonlyMap<string, CaseAnchor>): Markup {
  const error = problem.severity === 'error';
  const links = problem.where.slice(0, MAX_LINKS).flatMap((place) => {
    const anchor = anchors.get(JSON.stringify([place.channel, place.case]));
    return anchor ? [h`<li><a href="#${anchor.anchor}"><code>${place.case}</code> on ${anchor.channelTitle}</a></li>`] : [];
  });
  const more = problem.where.length - Math.min(problem.where.length, MAX_LINKS);
  return h`<li id="${problemAnchor(problem)}" class="finding problem ${error ? 'error' : 'warning'}" data-problem="${problem.id}">
    <p class="finding-head">
      <span class="problem-number">Problem ${problem.number}</span>
      <span class="severity"><span aria-hidden="true">${error ? '✗' : '!'}</span> ${error ? 'error' : 'warning'}</span>
      <span class="label">rule</span> <a class="rule-link" href="#${ruleAnchor(problem.rule)}"><code class="rule">${problem.rule}</code></a>
      <span class="label">at</span> <code class="pointer">${problem.path === '' ? '(body)' : cut(problem.path)}</code>
    </p>
    <p class="finding-message">${cut(problem.message)}</p>
    ${problem.example.value === undefined ? '' : h`<p class="problem-value"><span class="label">Value:</span> <code class="text-body">${cut(problem.example.value)}</code></p>`}
    ${problem.hint ? h`<p class="finding-hint"><span class="label">Fix:</span> ${withCode(cut(problem.hint))}</p>` : ''}
    <p class="problem-where">
      In ${plural(problem.cases, 'conversation')}${problem.findings > problem.cases ? ` (${count(problem.findings)} findings)` : ''}:
    </p>
    <ul class="problem-links">
      ${links}${more > 0 ? h`<li>and ${count(more)} more</li>` : ''}
    </ul>
  </li>`;
}

/**
 * "What to fix": each distinct problem of the run once, with its fix and links to the
 * conversations it came in; empty markup for a run without findings.
 */
export function renderWhatToFix(report: Report, problems: readonly ProblemReport[], anchors: readonly CaseAnchor[]): Markup | '' {
  if (problems.length === 0) return '';
  const byCase = new Map<string, CaseAnchor>();
  for (const anchor of anchors) {
    const key = JSON.stringify([anchor.caseReport.channel, anchor.caseReport.id]);
    if (!byCase.has(key)) byCase.set(key, anchor);
  }
  return h`<section id="what-to-fix" aria-labelledby="what-to-fix-title">
    <h2 id="what-to-fix-title">What to fix</h2>
    <p class="digest-title">${digestTitle(problems, report)}</p>
    <ol class="findings problems">
      ${problems.map((problem) => renderProblem(problem, byCase))}
    </ol>
  </section>`;
}
