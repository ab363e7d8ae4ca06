/**
 * `check-endpoint validate`'s digest: the distinct problems of the one answer it read, grouped
 * across its replies and every channel asked (core/problems.ts), each said once with its hint, the
 * reply it is about and how often it came; each channel's verdict then names its problems by number.
 */
import { excerpt, type Finding } from '../core/findings.js';
import { type GroupedFinding, groupProblems } from '../core/problems.js';
import type { ProblemReport } from '../core/report.js';
import type { Colours } from './colour.js';
import { problemNumbersText } from './digest.js';
import { printable, replyOf } from './text.js';

/** What a validated answer's problems name as their case: there is one answer, and no case. */
const ANSWER = 'answer';
const REPLY_EXCERPT = 100;

/** A channel's findings on the answer. */
export interface ChannelFindings {
  channel: string;
  findings: readonly Finding[];
}

function plural(count: number, one: string): string {
  return `${count} ${one}${count === 1 ? '' : 's'}`;
}

/** A finding of the answer as grouping reads it: no turn, and the reply its pointer is in. */
function grouped(finding: Finding): GroupedFinding {
  const reply = /^\/replies\/(\d+)(?:\/|$)/.exec(finding.path);
  return { ...finding, turn: null, reply: reply ? Number(reply[1]) : null };
}

/** The answer's distinct problems, across its replies and the channels asked, numbered from 1 (errors first). */
export function answerProblems(results: readonly ChannelFindings[]): ProblemReport[] {
  return groupProblems(results.map((result) => ({ id: ANSWER, channel: result.channel, findings: result.findings.map(grouped) })));
}

/** `problems 1, 2`: what a channel's verdict line names in place of its findings; '' for none. */
export function channelProblemsText(result: ChannelFindings, problems: readonly ProblemReport[]): string {
  return problemNumbersText({ findings: result.findings.map(grouped), runs: 1 }, 1, problems);
}

/**
 * The digest's lines: a title (`2 problems in six.json (12 findings)`), then each problem once:
 * number, mark, rule, pointer (its shape when it came at several) and message; its hint; the
 * first reply it is about; how often and on which channels, when more than once.
 */
export function formatAnswerDigest(
  problems: readonly ProblemReport[],
  answer: unknown,
  context: { input: string; channels: readonly string[] },
  c: Colours,
): string[] {
  if (problems.length === 0) return [];
  const findings = problems.reduce((sum, problem) => sum + problem.findings, 0);
  const title = `${plural(problems.length, 'problem')} in ${context.input}${findings > problems.length ? ` (${plural(findings, 'finding')})` : ''}.`;
  const failing = problems.some((problem) => problem.severity === 'error');
  const lines = [failing ? c.bold(c.red(title)) : c.bold(c.yellow(title)), ''];
  for (const problem of problems) {
    const mark = problem.severity === 'error' ? c.red('✗') : c.yellow('!');
    const where = problem.path === '' ? '(body)' : printable(problem.path);
    lines.push(
      `${c.bold(`problem ${problem.number}`)}  ${mark} ${c.bold(printable(problem.rule))}  ${c.cyan(where)}  ${printable(problem.message)}`,
    );
    if (problem.hint) lines.push(c.dim(`      hint: ${printable(problem.hint)}`));
    const reply = replyOf(answer, problem.example.path);
    if (reply !== undefined) lines.push(c.dim(`      reply: ${printable(excerpt(reply, REPLY_EXCERPT))}`));
    const on = problem.where.map((place) => place.channel);
    const channels = on.length === context.channels.length && on.length > 1 ? 'every channel asked' : on.join(', ');
    if (problem.findings > 1 || context.channels.length > 1)
      lines.push(c.dim(`      ${plural(problem.findings, 'finding')} on ${channels}`));
  }
  return lines;
}
