/**
 * --explore in the HTML report, under its case's heading: what it covered, what it never reached,
 * and each failure as its smallest conversation, numbered steps, its turns in the chat drawn below
 * and the command that plays it again. Every text from an agent is escaped by `h`.
 */
import type { CaseReport } from '../../core/report.js';
import { exploreSummary, keptOutcome, keptText } from '../explore-lines.js';
import { type Markup, h } from './markup.js';

export function renderExplore(caseReport: CaseReport): Markup | '' {
  const explore = caseReport.explore;
  if (!explore) return '';
  return h`<div class="case-meta explore">
    <p>${exploreSummary(explore)}</p>
    ${explore.notReached.length ? h`<p>Not reached: ${explore.notReached.join('; ')}</p>` : ''}
    ${explore.kept.map((kept) => h`<p>${keptText(kept)}: ${keptOutcome(kept)}</p>`)}
    ${explore.found.map(
      (
        failure,
      ) => h`<p><strong>${failure.title}</strong>: its smallest conversation, ${failure.steps.length} message(s), turns ${failure.firstTurn + 1} to ${failure.firstTurn + failure.steps.length} below${failure.flaky ? ` (flaky: played again, it passed: turns ${failure.flaky.firstTurn + 1} to ${failure.flaky.firstTurn + failure.flaky.messages})` : ''}:</p>
      <ol>${failure.described.map((step) => h`<li>${step}</li>`)}</ol>
      ${failure.replay ? h`<p>Replay: <code>${failure.replay}</code></p>` : ''}`,
    )}
  </div>`;
}
