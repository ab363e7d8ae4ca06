/**
 * The chat page's drawings, made with the HTML report's own renderers (src/report/html/): a
 * conversation's phone in its platform's look, and each turn as the report draws it (the person's
 * message, the line with its status and latency and the findings on the whole answer, each reply
 * with its own findings and fix beside it), its buttons and rows tappable and its messages
 * quotable, then the pane with the request and the answer. A turn is drawn alone, from the turns
 * before it: the page appends it without drawing the others again.
 */
import type { ReportedFinding } from '../core/report.js';
import { buildContext, renderReactionBadges, renderTurn } from '../report/html/conversation.js';
import { type Markup, h } from '../report/html/markup.js';
import { platformLook } from '../report/html/platforms.js';
import { asArray, asRecord, asString } from '../report/html/values.js';
import type { ChatConversation } from './chat-conversation.js';
import { renderTurnDetails } from './turn-details.js';
import { type CheckPlan, channelRules } from '../run/plan.js';

/** A channel's name for people: its limits file's title, its platform's, or the name itself. */
export function channelTitle(plan: Pick<CheckPlan, 'contract' | 'limits'>, channel: string): string {
  return channelRules(plan, channel)?.title ?? channel;
}

/** What the page reads of a turn besides its drawing: the same figures --json reports. */
export interface TurnFigures {
  status: number | null;
  latencyMs: number;
  /** How many replies the answer held; null when it was not a valid answer. */
  replies: number | null;
  findings: Pick<ReportedFinding, 'rule' | 'severity' | 'path' | 'message'>[];
}

export interface TurnView {
  index: number;
  html: string;
  /** The person's earlier messages this answer reacted to, each with its badges drawn again. */
  reactions: { messageId: string; html: string }[];
  figures: TurnFigures;
}

/** The conversation's drawing context, as of turn `index`, for the live page. */
function contextAt(conversation: ChatConversation, index: number): ReturnType<typeof buildContext> {
  const { channel } = conversation;
  const reports = conversation.turns.slice(0, index + 1).map((turn) => turn.report);
  const place = { problems: new Map(), caseId: 'chat', channel, play: 1 };
  return {
    ...buildContext(channel, reports, channelTitle(conversation.link.plan, conversation.channel), platformLook(channel), place),
    interactive: true,
  };
}

/** The ids of the person's messages before turn `index` that a reaction of its answer names. */
function reactedTo(conversation: ChatConversation, index: number): string[] {
  const turn = conversation.turns[index]!;
  const earlier = new Set(conversation.turns.slice(0, index).map((other) => other.past.messageId));
  const replies = asArray(asRecord(turn.report.answer)?.replies) ?? [];
  const named = replies.flatMap((reply) => {
    const record = asRecord(reply);
    const target = record?.type === 'reaction' ? asString(record.messageId) : undefined;
    return target !== undefined && earlier.has(target) ? [target] : [];
  });
  return [...new Set(named)];
}

/** Turn `index` of a conversation, drawn for the page; `download` is where its request body is downloaded; `paneId` its pane's id. */
export function renderChatTurn(conversation: ChatConversation, index: number, download: string, paneId: string): TurnView {
  const context = contextAt(conversation, index);
  const turn = conversation.turns[index]!;
  // A tap names the answer that offered it: the report's drawing says when that answer was not sent (no person could have tapped it).
  const offering = turn.step.tap ? conversation.turns[turn.step.tap.turn]?.report : undefined;
  const drawn = h`${renderTurn(context, turn.report, index, index + 1, offering)}${renderTurnDetails(
    turn,
    index,
    conversation.link.reproduce,
    download,
    paneId,
  )}`;
  const reactions = reactedTo(conversation, index).map((messageId) => ({
    messageId,
    html: String(renderReactionBadges(context, messageId)),
  }));
  const replies = asArray(asRecord(turn.report.answer)?.replies);
  return {
    index,
    html: drawn.value,
    reactions,
    figures: {
      status: turn.report.status,
      latencyMs: turn.report.latencyMs,
      replies: turn.past.replies ? (replies?.length ?? 0) : null,
      findings: turn.report.findings.map(({ rule, severity, path, message }) => ({ rule, severity, path, message })),
    },
  };
}

/** A conversation's phone, empty: its turns are appended into its list as they are answered. */
export function renderPhone(conversation: ChatConversation, key: string): Markup {
  const look = platformLook(conversation.channel);
  const title = channelTitle(conversation.link.plan, conversation.channel);
  const composer = look.look === 'imessage' ? 'iMessage' : look.look === 'sms' ? 'Text Message' : 'Message';
  return h`<section class="conversation" data-conversation="${key}" data-channel="${conversation.channel}" aria-label="Conversation on ${title}">
    <p class="conversation-meta">
      On <strong>${title}</strong> · conversation <code>${conversation.conversationId}</code>
    </p>
    <div class="phone look-${look.look}">
      <div class="phone-head">
        <span class="avatar" aria-hidden="true">A</span>
        <p class="phone-title"><span class="phone-name">Agent</span> <span class="phone-caption">${look.caption}</span></p>
      </div>
      <ol class="chat" aria-label="Conversation on ${title}">
        <li class="row system empty-note">
          <div class="lane"><p class="chip-line"><span class="turn-chip">No message yet: type one below</span></p></div>
          <div class="notes"></div>
        </li>
      </ol>
      <div class="phone-foot" aria-hidden="true"><span class="composer">${composer}</span></div>
    </div>
  </section>`;
}
