/**
 * Plays one explored conversation through the case's context: each step made into its message
 * against the answers so far, sent, judged by every common rule. Its turns are kept in the case's
 * report only when asked (a failure's smallest conversation); the rest are forgotten once played,
 * and only counted, so 10,000 turns hold no more than the failures found.
 */
import type { Reply } from '../../core/answer.js';
import type { Finding } from '../../core/findings.js';
import { pointerShape } from '../../core/problems.js';
import type { CaseContext, Conversation } from '../case.js';
import { type ExploreStep, stepMessage } from './explore-step.js';
import { type OfferedChoice, offeredChoices } from './offered-choices.js';

/** One played turn: the step, what it sent as its message, the answer's replies, and its failures (errors; every finding with --strict). */
export interface PlayedTurn {
  step: ExploreStep;
  /** The id of the choice the tap sent: the step's, or, found again by its title, the one the agent offers now. */
  tapped?: string;
  replies: readonly Reply[] | undefined;
  /** The buttons and list rows its answer offers (offeredChoices, once per turn). */
  offered: readonly OfferedChoice[];
  /** Its failures by place (failurePlace), each with its first finding. */
  failures: ReadonlyMap<string, Finding>;
}

/** A conversation as played. */
export interface PlayedConversation {
  turns: PlayedTurn[];
  /** The step that could not be sent, and why (a tap on a choice the agent no longer offers). */
  changed?: string;
  /** The run was halted before it ended (its last turn may hold the finding of an agent that stopped answering). */
  cut: boolean;
  /** The conversation in the case's context: kept in the report unless `forget` is called. */
  conversation: Conversation;
}

/** The next step of a conversation, given its turns so far; undefined ends it. */
export type Script = (played: readonly PlayedTurn[]) => ExploreStep | undefined;

/**
 * Where a failure is, as --explore tells problems apart: its rule, severity and the shape of its
 * pointer (`platform error /replies/*\/buttons/*`), not its message, which quotes what varies (a
 * JSON parser's words differ with each broken body: still the one problem).
 */
export function failurePlace(finding: Finding): string {
  return `${finding.rule} ${finding.severity} ${finding.path === '' ? '(the answer)' : pointerShape(finding.path)}`;
}

/** The failures of a turn, by place: errors, and every finding under --strict. */
function failuresOf(findings: readonly Finding[], strict: boolean): Map<string, Finding> {
  const failures = new Map<string, Finding>();
  for (const finding of findings) {
    if (finding.severity !== 'error' && !strict) continue;
    const id = failurePlace(finding);
    if (!failures.has(id)) failures.set(id, finding);
  }
  return failures;
}

/** A script that sends `steps` in order. */
export function stepsScript(steps: readonly ExploreStep[]): Script {
  return (played) => steps[played.length];
}

/**
 * Plays a conversation of at most `maxTurns` messages, each from `script`, stopping at the first
 * turn that fails when `stopAtFailure` (a failure ends what the conversation can show: what follows
 * would be played from a broken state).
 */
export async function playConversation(
  context: CaseContext,
  script: Script,
  maxTurns: number,
  stopAtFailure = true,
): Promise<PlayedConversation> {
  const conversation = context.openConversation();
  const turns: PlayedTurn[] = [];
  const played: PlayedConversation = { turns, cut: false, conversation };
  while (turns.length < maxTurns) {
    const step = script(turns);
    if (step === undefined) break;
    const made = stepMessage(step, conversation.past);
    if ('changed' in made) {
      played.changed = made.changed;
      break;
    }
    if (context.halted) {
      played.cut = true;
      break;
    }
    const message = made.message;
    const expectsReply = message.text !== '' && message.choice === undefined && message.attachments === undefined;
    try {
      const turn = await context.exchange({ conversation, message, expectsReply });
      const tapped = step.tap?.offeredAt !== undefined ? message.choice?.id : undefined;
      turns.push({
        step,
        offered: offeredChoices(turn.replies),
        ...(tapped !== undefined ? { tapped } : {}),
        replies: turn.replies,
        failures: failuresOf(turn.findings, context.settings.strict),
      });
      if (stopAtFailure && turns.at(-1)!.failures.size > 0) break;
    } catch (cause) {
      // The run was halted while this message was in flight: the case ends with what it has.
      if (!context.halted) throw cause;
      played.cut = true;
      break;
    }
  }
  return played;
}
