import { renderExplore } from './explore.js';
import type { CaseReport, PlayReport, ProblemReport, ReportedFinding, TurnReport } from '../../core/report.js';
import type { RecordedAttachment, RecordedMessage } from '../../core/request.js';
import type { ConversationContext, PersonMessageView, ReactionView } from './context.js';
import { findingsText } from '../digest.js';
import { type FindingPlace, hasError, renderFindings, repeatedProblem } from './findings.js';
import { type Markup, h } from './markup.js';
import { type PlatformLook, platformLook } from './platforms.js';
import { quoteButton, renderRaw, renderReply, renderText } from './reply.js';
import { sentWhole } from './drawn-parts.js';
import { imageDataUrl } from './image-data.js';
import { asArray, asRecord, asString, clip, count, plural } from './values.js';

const MAX_TURNS = 40;
/** Plays drawn at the most (--runs takes up to 100). */
const MAX_PLAYS = 20;
const MAX_REPLIES = 25;
const MAX_ATTACHMENTS = 5;

export type CaseState = 'pass' | 'warning' | 'fail' | 'not-run';

function playState(play: PlayReport): CaseState {
  if (play.status === 'not-run') return 'not-run';
  if (!play.passed) return 'fail';
  return play.findings.length > 0 ? 'warning' : 'pass';
}

export function caseState(caseReport: CaseReport): CaseState {
  if (caseReport.status === 'not-run') return 'not-run';
  if (!caseReport.passed) return 'fail';
  return caseReport.findings.length > 0 ? 'warning' : 'pass';
}

export const STATE_LABEL: Record<CaseState, { mark: string; text: string }> = {
  pass: { mark: '✓', text: 'Pass' },
  warning: { mark: '!', text: 'Warning' },
  fail: { mark: '✗', text: 'Fail' },
  'not-run': { mark: '–', text: 'Not run' },
};

/** What a quote of the person's message shows. */
function summary(message: RecordedMessage): string {
  if (message.text) return message.text;
  if (message.choice) return message.choice.title;
  const kind = message.attachments?.[0]?.kind;
  if (kind === 'image') return '📷 Photo';
  if (kind !== undefined) return `📎 ${kind}`;
  return '(empty message)';
}

function repliesOf(turn: TurnReport): readonly unknown[] | undefined {
  return asArray(asRecord(turn.answer)?.replies);
}

/** The person's messages and the agent's reactions, by message id, for quotes and reaction badges. */
export function buildContext(
  channel: string,
  turns: readonly TurnReport[],
  channelTitle: string,
  look: PlatformLook,
  place: FindingPlace,
): ConversationContext {
  const personMessages = new Map<string, PersonMessageView>();
  const reactions = new Map<string, ReactionView[]>();
  turns.forEach((turn, index) => {
    personMessages.set(turn.messageId, { messageId: turn.messageId, summary: summary(turn.request.message), turn: index });
  });
  turns.forEach((turn, index) => {
    (repliesOf(turn) ?? []).slice(0, MAX_REPLIES).forEach((reply, replyIndex) => {
      const record = asRecord(reply);
      const target = asString(record?.messageId);
      if (record?.type !== 'reaction' || target === undefined || !personMessages.has(target)) return;
      const emoji = asString(record.emoji);
      // Drawn on the message only where the platform shows it: with no error in it (its findings are beside its reply).
      if (emoji === undefined || !sentWhole(replyIndex, turn.findings)) return;
      const list = reactions.get(target) ?? [];
      list.push({ emoji: clip(emoji, 8).shown, turn: index, reply: replyIndex });
      reactions.set(target, list);
    });
  });
  return { channel, channelTitle, look, personMessages, reactions, place };
}

function renderAttachment(attachment: RecordedAttachment): Markup {
  const { kind, name, mime } = attachment;
  if (kind === 'image' && 'data' in attachment) {
    const source = imageDataUrl(mime, attachment.data);
    if (source !== undefined) return h`<img class="picture" src="${source}" alt="Photo sent by the person${name ? ` (${name})` : ''}" />`;
  }
  const named = name ? h` <code>${renderText(name, 80)}</code>` : '';
  // Data over 1 KB is not in the report (its size and digest are): the page names the file.
  const size = 'dataBytes' in attachment ? `, ${attachment.dataBytes.toLocaleString('en-US')} bytes` : '';
  const typed = mime ? h` (${renderText(mime, 60)}${size})` : '';
  return h`<p class="file"><span aria-hidden="true">📎 </span>${kind}${named}${typed}</p>`;
}

export function renderReactionBadges(context: ConversationContext, messageId: string): Markup | '' {
  const list = context.reactions.get(messageId);
  if (!list?.length) return '';
  return h`<ul class="reactions" aria-label="Reactions">
    ${list.map(
      (reaction) =>
        h`<li class="reaction" title="the agent reacted"><span class="sr-only">The agent reacted: </span>${reaction.emoji}</li>`,
    )}
  </ul>`;
}

/** What quality cases change about a request: a damaged body, a missing or wrong token. */
function requestNotes(turn: TurnReport): Markup | '' {
  const { sentBody, authorization } = turn;
  const notes: Markup[] = [];
  if (authorization === 'none') notes.push(h`<p class="request-note">Sent without an authorization header</p>`);
  else if (authorization === 'wrong-token') notes.push(h`<p class="request-note">Sent with a made-up token</p>`);
  if (sentBody !== undefined) {
    notes.push(h`<div class="raw sent-body">
      <p class="raw-title">The body as sent</p>
      <pre><code>${renderText(sentBody, 400)}</code></pre>
    </div>`);
  }
  return notes.length ? h`${notes}` : '';
}

/**
 * The person's tap: `Tapped 6 pm`, or, when the reply that carried the button was not sent (the
 * turn before failed), a tap the check sent to go on, which no person could have made.
 */
function renderTap(title: string, offeredUnsent: boolean): Markup {
  if (!offeredUnsent)
    return h`<p class="tap"><span class="tap-label">Tapped</span> <span class="text-body">${renderText(title, 120)}</span></p>`;
  return h`<p class="tap tap-unsent"><span class="tap-label">Sent by the check as a tap</span> <span class="text-body">${renderText(title, 120)}</span></p>
    <p class="tap-note">The reply with this button was not sent, so no person could tap it; the check sent the tap to go on with the conversation.</p>`;
}

function renderPersonTurn(context: ConversationContext, turn: TurnReport, index: number, turns: number, previous?: TurnReport): Markup {
  const message = turn.request.message;
  const sr = `Person, message ${index + 1} of ${turns}:`;
  const notes = requestNotes(turn);
  // A body damaged on purpose (quality/malformed) is drawn as sent, not as the message it was made from.
  if (turn.sentBody !== undefined) {
    return h`<li class="row person">
      <div class="lane">
        <p class="sr-only">${sr}</p>
        <div class="bubble from-person">${notes}</div>
      </div>
      <div class="notes"></div>
    </li>`;
  }
  const { choice, replyTo } = message;
  const quote = replyTo
    ? h`<blockquote class="quote">
        <p class="quote-from">${replyTo.from === 'agent' ? 'Agent' : 'Person'}</p>
        <p class="quote-text">${renderText(replyTo.text || '(no text)', 160)}</p>
      </blockquote>`
    : '';
  const attachments = (message.attachments ?? []).slice(0, MAX_ATTACHMENTS).map(renderAttachment);
  return h`<li class="row person" data-message-id="${turn.messageId}">
    <div class="lane">
      <p class="sr-only">${sr}</p>
      <div class="bubble from-person">
        ${notes}${quote}${attachments}
        ${choice ? renderTap(choice.title, previous !== undefined && hasError(previous.findings)) : ''}
        ${message.text ? h`<p class="text" dir="auto">${renderText(message.text)}</p>` : ''}
        ${!message.text && !choice && attachments.length === 0 ? h`<p class="text bad-value">(empty message)</p>` : ''}
        <p class="meta"><span class="ticks" aria-hidden="true">✓✓</span></p>
        ${renderReactionBadges(context, turn.messageId)}
      </div>
      ${quoteButton(context, 'person', index)}
    </div>
    <div class="notes"></div>
  </li>`;
}

/** The line between the person's message and the agent's answer: status and latency. */
function renderTurnStatus(context: ConversationContext, turn: TurnReport, index: number, findings: readonly ReportedFinding[]): Markup {
  const replies = repliesOf(turn);
  const failed = hasError(findings);
  const parts = [`Turn ${index + 1}`];
  if (turn.status === null) parts.push('no answer');
  else parts.push(`HTTP ${turn.status}`);
  parts.push(`${count(turn.latencyMs)} ms`);
  if (replies) parts.push(replies.length === 0 ? 'no reply' : plural(replies.length, 'reply', 'replies'));
  const raw = failed && turn.answer !== null && turn.answer !== undefined && !replies ? renderRaw(turn.answer, 'The answer body') : '';
  const reproduce = turn.findings.find((finding) => finding.reproduce !== null)?.reproduce ?? undefined;
  return h`<li class="row system${failed ? ' refused' : ''}">
    <div class="lane">
      <p class="chip-line"><span class="turn-chip${failed ? ' bad' : ''}">${parts.join(' · ')}</span></p>
      ${failed && !replies ? h`<p class="turn-failed">The person gets nothing from this answer.</p>` : ''}${raw}
    </div>
    <div class="notes">
      ${failed ? h`<p class="not-sent-label"><span aria-hidden="true">⊘</span> ${replies ? 'Error in this answer' : 'Answer refused'}</p>` : ''}${renderFindings(
        findings,
        `Findings for turn ${index + 1}`,
        context.place,
      )}${
        reproduce !== undefined
          ? h`<details class="reproduce">
              <summary>Send this turn again with curl</summary>
              <pre><code>${renderText(reproduce, 4000)}</code></pre>
            </details>`
          : ''
      }
    </div>
  </li>`;
}

/** One turn: the person's message, the line with its status and latency (and its findings), then each reply. */
export function renderTurn(context: ConversationContext, turn: TurnReport, index: number, turns: number, previous?: TurnReport): Markup {
  const replies = repliesOf(turn) ?? [];
  const shown = replies.slice(0, MAX_REPLIES);
  const byReply = (reply: number) => turn.findings.filter((finding) => finding.reply === reply);
  const whole = turn.findings.filter((finding) => finding.reply === null || finding.reply >= shown.length || finding.reply < 0);
  return h`${renderPersonTurn(context, turn, index, turns, previous)}${renderTurnStatus(context, turn, index, whole)}${shown.map(
    (reply, replyIndex) =>
      renderReply(
        context,
        reply,
        { turn: index, reply: replyIndex, replies: replies.length, latencyMs: turn.latencyMs },
        byReply(replyIndex),
      ),
  )}${
    replies.length > shown.length
      ? h`<li class="row system">
          <div class="lane">
            <p class="chip-line"><span class="turn-chip">${count(replies.length - shown.length)} more replies not drawn</span></p>
          </div>
          <div class="notes"></div>
        </li>`
      : ''
  }`;
}

export interface CaseAnchor {
  caseReport: CaseReport;
  anchor: string;
  channelTitle: string;
  /** The run's problems by id: a finding repeating one drawn before is folded. */
  problems: ReadonlyMap<string, ProblemReport>;
}

/** One case: its heading, then its conversation drawn the way the channel's platform shows it. */
export function renderConversation({ caseReport, anchor, channelTitle, problems }: CaseAnchor): Markup {
  const look = platformLook(caseReport.channel);
  const state = caseState(caseReport);
  const plays = caseReport.plays.slice(0, MAX_PLAYS);
  const errors = caseReport.findings.filter((finding) => finding.severity === 'error').length;
  const warnings = caseReport.findings.length - errors;
  const runFindings = caseReport.findings.filter((finding) => finding.turn === null);
  const tally = errors + warnings ? findingsText({ errors, warnings }) : '';
  const compact = caseReport.findings.length === 0 ? ' compact' : '';
  const { expected, latency } = caseReport;
  const ms = (value: number): string => `${count(value)} ms`;
  const latencyLine = latency
    ? h`<p class="case-meta">Answer times over ${plural(latency.turns, 'turn')}: p50 ${ms(latency.p50Ms)} · p95 ${ms(latency.p95Ms)} · max ${ms(latency.maxMs)} · budget ${ms(latency.budgetMs)}</p>`
    : '';
  return h`<section
    class="case state-${state}${compact}"
    id="${anchor}"
    tabindex="-1"
    data-state="${state}"
    data-channel="${caseReport.channel}"
    data-case="${caseReport.id}"
    aria-labelledby="${anchor}-title"
  >
    <header class="case-head">
      <h4 id="${anchor}-title">
        <span class="state-badge ${state}"><span aria-hidden="true">${STATE_LABEL[state].mark} </span>${
          caseReport.label === 'flaky' ? 'Flaky' : STATE_LABEL[state].text
        }</span>
        <code class="case-id">${caseReport.id}</code> <span class="on">on ${channelTitle}</span>${
          expected ? h` <span class="expected">expected by the baseline</span>` : ''
        }
      </h4>
      <p class="case-meta">
        ${caseReport.runs > 1 ? `${count(caseReport.passedRuns)} of ${plural(caseReport.runs, 'play')} passed · ` : ''}${plural(caseReport.turns.length, 'turn')} · ${count(caseReport.durationMs)} ms${tally ? ` · ${tally}` : ''} · conversation
        <code>${renderText(caseReport.conversationId, 200)}</code><span class="back"> · <a href="#matrix">back to the matrix</a></span>
      </p>
      ${latencyLine}
      ${renderExplore(caseReport)}
    </header>
    ${
      runFindings.length
        ? h`<div class="case-findings">${renderFindings(runFindings, 'Findings for the whole case', placeOf(caseReport, problems, 1))}</div>`
        : ''
    }
    ${foldedOrNot(
      caseReport,
      problems,
      h`${plays.map((play) => renderPhone(caseReport, play, channelTitle, look, placeOf(caseReport, problems, play.play)))}`,
    )}
  </section>`;
}

/**
 * A conversation whose every finding repeats a problem drawn whole before (in "What to fix" and in
 * the conversation it first came in) is folded: its heading stays, its phone opens on demand.
 */
function foldedOrNot(caseReport: CaseReport, problems: ReadonlyMap<string, ProblemReport>, phones: Markup): Markup {
  const repeats = caseReport.findings.filter((finding) => repeatedProblem(finding, placeOf(caseReport, problems, finding.play ?? 1)));
  if (caseReport.findings.length === 0 || repeats.length < caseReport.findings.length) return phones;
  const numbers = [...new Set(repeats.map((finding) => problems.get(finding.problem ?? '')?.number))].filter(
    (number): number is number => number !== undefined,
  );
  const named = `${numbers.length === 1 ? 'problem' : 'problems'} ${numbers.sort((a, b) => a - b).join(', ')}`;
  return h`<details class="conversation-fold">
    <summary>Show the conversation: ${named}, drawn in full where ${numbers.length === 1 ? 'it' : 'each'} first came</summary>
    ${phones}
  </details>`;
}

function placeOf(caseReport: CaseReport, problems: ReadonlyMap<string, ProblemReport>, play: number): FindingPlace {
  return { problems, caseId: caseReport.id, channel: caseReport.channel, play };
}

/** One play's conversation, drawn the way the channel's platform shows it. */
function renderPhone(caseReport: CaseReport, play: PlayReport, channelTitle: string, look: PlatformLook, place: FindingPlace): Markup {
  const { runs } = caseReport;
  const context = buildContext(caseReport.channel, play.turns, channelTitle, look, place);
  const turns = play.turns.slice(0, MAX_TURNS);
  const heading =
    runs > 1
      ? h`<p class="play-title">Play ${play.play} of ${runs}: ${STATE_LABEL[playState(play)].text} · <code>${renderText(play.conversationId, 200)}</code></p>`
      : '';
  return h`${heading}    <div class="phone look-${look.look}">
      <div class="phone-head">
        <span class="avatar" aria-hidden="true">A</span>
        <p class="phone-title"><span class="phone-name">Agent</span> <span class="phone-caption">${look.caption}</span></p>
      </div>
      <ol class="chat" aria-label="Conversation: ${caseReport.id} on ${channelTitle}${runs > 1 ? `, play ${play.play}` : ''}">
        ${turns.map((turn, index) => renderTurn(context, turn, index, play.turns.length, turns[index - 1]))}${
          play.turns.length > turns.length
            ? h`<li class="row system">
                <div class="lane">
                  <p class="chip-line">
                    <span class="turn-chip">${count(play.turns.length - turns.length)} more turns not drawn</span>
                  </p>
                </div>
                <div class="notes"></div>
              </li>`
            : ''
        }${
          play.turns.length === 0
            ? h`<li class="row system">
                <div class="lane">
                  <p class="chip-line"><span class="turn-chip">No messages were exchanged</span></p>
                </div>
                <div class="notes"></div>
              </li>`
            : ''
        }
      </ol>
      <div class="phone-foot" aria-hidden="true">
        <span class="composer">${look.look === 'imessage' ? 'iMessage' : look.look === 'sms' ? 'Text Message' : 'Message'}</span>
      </div>
    </div>`;
}
