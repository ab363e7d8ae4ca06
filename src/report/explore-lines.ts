/**
 * --explore in the terminal, under its case line: what it covered (turns, conversations, choices
 * tapped, the deepest conversation, why it stopped) and what it never reached; then each failure
 * as its smallest conversation, numbered steps, and how to play it again.
 */
import type { Colours } from './colour.js';
import type { CaseReport, ExploredFailure, ExploreReport, KeptReplay, ProblemReport } from '../core/report.js';
import { printable } from './text.js';
import { thousands } from '../core/thousands.js';

function plural(count: number, one: string, many = `${one}s`): string {
  return `${thousands(count)} ${count === 1 ? one : many}`;
}

const STOPPED: Readonly<Record<Exclude<ExploreReport['stoppedBy'], 'done'>, string>> = {
  turns: 'stopped at --explore-turns',
  halted: 'stopped early: the run was halted',
};

/** `explore: 300 turns in 41 conversations (seed 7); 27 of 29 offered choices tapped, 5 menu states, deepest 11 messages; stopped at --explore-turns`. */
export function exploreSummary(explore: ExploreReport): string {
  if (explore.stoppedBy === 'done') return 'explore: played the conversations kept from earlier runs only (--failed)';
  const { choices } = explore;
  const covered = [
    ...(choices.offered
      ? [`${choices.tapped} of ${plural(choices.offered, 'offered choice')} tapped`, plural(explore.states, 'menu state')]
      : ['no button or list row offered']),
    `deepest ${plural(explore.deepest, 'message')}`,
  ];
  const shrinking = explore.shrinkTurns ? `; ${plural(explore.shrinkTurns, 'more turn')} shrinking` : '';
  return `explore: ${plural(explore.turns, 'turn')} in ${plural(explore.conversations, 'conversation')} (seed ${explore.seed}); ${covered.join(', ')}; ${STOPPED[explore.stoppedBy]}${shrinking}`;
}

/** The conversation --explore found a problem in, when the problem's example is an explore case's. */
export function exploredConversation(problem: ProblemReport, cases: readonly CaseReport[]): ExploredFailure | undefined {
  const { example } = problem;
  const explored = cases.find((caseReport) => caseReport.id === example.case && caseReport.channel === example.channel)?.explore;
  return explored?.found.find((failure) => failure.problem === problem.id);
}

/** A found failure's conversation, numbered steps, and how to play it again (the digest's lines under its problem). */
export function conversationLines(failure: ExploredFailure, channel: string, c: Colours): string[] {
  const shrink = failure.shrink
    ? ` (shrunk from ${plural(failure.shrink.fromMessages, 'message')} in ${plural(failure.shrink.plays, 'play')}${failure.shrink.gaveUp ? `; ${failure.shrink.gaveUp}` : ''})`
    : failure.source === 'kept'
      ? ' (kept from an earlier run)'
      : ' (as found: --no-shrink)';
  const lines = [
    c.dim(`      its smallest conversation (explore on ${printable(channel)}), ${plural(failure.steps.length, 'message')}${shrink}:`),
  ];
  failure.described.forEach((step, index) => lines.push(`        ${index + 1}. ${printable(step)}`));
  if (failure.flaky) {
    lines.push(
      c.yellow(`        flaky: played again, the same ${plural(failure.flaky.messages, 'message')} passed (both plays are in the report)`),
    );
  }
  if (failure.replay) lines.push(c.dim(`      replay: ${failure.replay}`));
  return lines;
}

/** A kept conversation, as its replay's line names it: `kept from an earlier run (status, 1 message)`. */
export function keptText(kept: KeptReplay): string {
  return `kept from an earlier run (${kept.title}, ${plural(kept.messages, 'message')})`;
}

/** How a kept conversation's replay went: `fails still`, `passes now`, or `the path changed: …`. */
export function keptOutcome(kept: KeptReplay): string {
  return kept.outcome === 'failed' ? 'fails still' : kept.outcome === 'passed' ? 'passes now' : `the path changed: ${kept.note ?? ''}`;
}

/** Every turn explore sent on its channel: the kept conversations', exploring's and shrinking's. */
export function exploreTurnsSent(explore: ExploreReport): number {
  return explore.kept.reduce((sum, kept) => sum + kept.messages, 0) + explore.turns + explore.shrinkTurns;
}

/** The lines under the explore case's line; none for another case. */
export function formatExplore(caseReport: CaseReport, c: Colours, problems: readonly ProblemReport[] = []): string[] {
  const explore = caseReport.explore;
  if (!explore) return [];
  const lines = [`      ${printable(exploreSummary(explore))}`];
  const colour = { failed: c.red, passed: c.green, 'path-changed': c.yellow } as const;
  for (const kept of explore.kept) {
    lines.push(c.dim(`      ${printable(keptText(kept))}: `) + colour[kept.outcome](printable(keptOutcome(kept))));
  }
  for (const missed of explore.notReached) lines.push(c.dim(`      not reached: ${printable(missed)}`));
  // Each failure's conversation is under its problem in the digest; here only one the digest shows under another case's example.
  for (const failure of explore.found) {
    const problem = problems.find((candidate) => candidate.id === failure.problem);
    if (problem && problem.example.case === caseReport.id && problem.example.channel === caseReport.channel) continue;
    const name = problem === undefined ? printable(failure.title) : `problem ${problem.number} (${printable(failure.title)})`;
    lines.push(`      ${c.bold(name)}:`, ...conversationLines(failure, caseReport.channel, c).map((line) => `  ${line}`));
  }
  if (explore.found.length) lines.push(c.dim('      --failed plays just these conversations again; the next --explore plays them first'));
  return lines;
}
