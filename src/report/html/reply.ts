import { excerpt, replyPointer } from '../../core/findings.js';
import { countingUnitOf, isTextCount } from '../../platforms/counting.js';
import type { PlatformRules } from '../../platforms/platform-rules.js';
import { bubblesOf } from '../../validate/bubble-findings.js';
import type { ReportedFinding } from '../../core/report.js';
import type { ConversationContext } from './context.js';
import { hasError, renderFindings } from './findings.js';
import { type Interpolation, type Markup, h } from './markup.js';
import { drawable, drawnPart, sentWhole } from './drawn-parts.js';
import { faultUnder, faultsAt, limitCounting, sentTextEnd, struck, struckWhere } from './at-fault.js';
import { imageData } from './image-data.js';
import { type PartPlace, label, openerLabel, partPointer, renderButtons, renderListSheet } from './choices.js';
import { asArray, asRecord, asString, clip, count, plural } from './values.js';

const MAX_TEXT = 1500;
const MAX_PARAMETERS = 20;
const RAW_EXCERPT = 400;
/** Of a text past its platform's limit, the part not sent is drawn up to this many characters. */
const MAX_STRUCK_TEXT = 300;

/** A text cut to a length, with a note of what is left out. */
export function renderText(text: string, max = MAX_TEXT): Markup {
  const { shown, hidden } = clip(text, max);
  return h`<span class="text-body">${shown}</span>${
    hidden ? h`<span class="clipped"> … ${count(hidden)} more characters not shown</span>` : ''
  }`;
}

/**
 * A message's text, and where the platform refuses it for its length, the part past the limit its
 * finding carries struck (the text's start, as it would be cut in the unit the check counted, then
 * what is over): the page shows where the text stops fitting. A text refused whole is struck whole.
 */
function renderMessageText(text: string, pointer: string, findings: readonly ReportedFinding[]): Markup {
  const end = sentTextEnd(findings, pointer, text);
  if (end === undefined) return renderText(text);
  const over = renderText(text.slice(end), MAX_STRUCK_TEXT);
  return end === 0 ? struck(over, pointer) : h`${renderText(text.slice(0, end))}${struck(over, pointer)}`;
}

/**
 * The quote a reply carries over it: the person's message it names. A replyTo that names no
 * message of the conversation (null, not a string, an unknown id) draws nothing: no platform
 * shows such a quote, and its finding says what is wrong.
 */
export function renderQuote(context: ConversationContext, messageId: unknown): Markup | '' {
  const quoted = typeof messageId === 'string' ? context.personMessages.get(messageId) : undefined;
  if (!quoted) return '';
  if (!context.look.showsQuotes) {
    return h`<p class="quote-note">Quoted message not shown: ${context.channelTitle} sends the reply without it.</p>`;
  }
  return h`<blockquote class="quote">
    <p class="quote-from">Person</p>
    <p class="quote-text">${renderText(quoted.summary, 160)}</p>
  </blockquote>`;
}

/**
 * An image as the platform shows it: by URL (named, never loaded), or its data drawn. Data no
 * browser draws (its bytes are not the type its mime claims) is named with its size instead of a
 * broken picture. Anything else (null, neither a URL nor base64 data) has nothing to draw.
 */
function renderImage(image: unknown): Markup | '' {
  const record = asRecord(image);
  const url = asString(record?.url);
  if (url !== undefined) {
    // Never loaded: the page makes no network requests. The URL is shown as text only.
    return h`<figure class="image-placeholder">
      <span class="placeholder-icon" aria-hidden="true">🖼</span>
      <figcaption>Image by URL, not loaded here:<br /><code class="url">${renderText(url, 300)}</code></figcaption>
    </figure>`;
  }
  const mime = asString(record?.mime);
  const data = imageData(record?.mime, record?.data);
  if (data === undefined) return '';
  if (data.drawn) return h`<img class="picture" src="${data.url}" alt="Image sent by the agent (${mime ?? 'image'})" />`;
  return h`<p class="image-undrawn">Image data ${data.why} (${plural(data.bytes, 'byte')}): not drawn here</p>`;
}

/** On the live chat page, the button that quotes a message: the person's (of turn `turn`) or the agent's reply `reply` of that turn. */
export function quoteButton(context: ConversationContext, from: 'person' | 'agent', turn: number, reply?: number): Markup | '' {
  if (!context.interactive) return '';
  const whose = from === 'person' ? `your message ${turn + 1}` : `the agent's reply ${(reply ?? 0) + 1} to message ${turn + 1}`;
  return h`<button type="button" class="quote-this" data-quote-from="${from}" data-turn="${turn}"${
    reply !== undefined ? h` data-reply="${reply}"` : ''
  } aria-label="Quote ${whose}">Quote</button>`;
}

function hostOf(url: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url);
  return match ? match[1]! : url;
}

/** A link: a call-to-action button, or (iMessage) a rich link preview that shows no label. */
function renderLink(
  context: ConversationContext,
  link: Record<string, unknown>,
  place: PartPlace,
): { inside: Markup | ''; below: Markup | '' } {
  const url = asString(link.url) ?? '';
  // Struck where its platform refuses it: the whole link, or its label past its length.
  const whole = faultsAt(place.findings, partPointer(place, 'link')).length > 0;
  const mark = (content: Markup, pointer: string): Markup | string =>
    whole ? struck(content, partPointer(place, 'link')) : struckWhere(place.findings, pointer, content);
  const urlText = mark(h`<code class="url">${renderText(url, 200)}</code>`, partPointer(place, 'link', 'url'));
  if (context.look.linkPreview) {
    return {
      inside: h`<div class="link-preview">
        <p class="preview-host">${clip(hostOf(url), 80).shown}</p>
        ${urlText}
        <p class="quote-note">Label not shown on ${context.channelTitle}.</p>
      </div>`,
      below: '',
    };
  }
  const cta = h`<span class="cta-label"><span aria-hidden="true">↗ </span>${mark(label(link.label), partPointer(place, 'link', 'label'))}</span>`;
  const button = h`${cta}<span class="sr-only">, a link button to </span>${urlText}`;
  if (context.look.inlineKeyboard) return { inside: '', below: h`<li class="chip cta">${button}</li>` };
  return { inside: h`<p class="cta">${button}</p>`, below: '' };
}

/** Where a reply is drawn: the bubble side, and the notes beside it. */
function row(classes: string, lane: Interpolation, notes: Interpolation, notSent: boolean, sr: string): Markup {
  return h`<li class="row agent kind-${classes}${notSent ? ' not-sent' : ''}">
    <div class="lane">
      <p class="sr-only">${sr}</p>
      ${lane}
    </div>
    <div class="notes">${notSent ? h`<p class="not-sent-label"><span aria-hidden="true">⊘</span> Not sent</p>` : ''}${notes}</div>
  </li>`;
}

export interface ReplyPlace {
  turn: number;
  reply: number;
  replies: number;
  latencyMs: number;
}

function describe(place: ReplyPlace, notSent: boolean): string {
  return `Agent, reply ${place.reply + 1} of ${place.replies}${notSent ? ', not sent' : ''}:`;
}

function renderMessage(
  context: ConversationContext,
  reply: Record<string, unknown>,
  place: ReplyPlace,
  findings: readonly ReportedFinding[],
): Markup {
  const notSent = hasError(findings);
  // Each part but where an error of its shape or ids is found at it (its finding is drawn instead); struck where its platform refuses it.
  const part = (field: string): unknown => drawnPart(reply, place.reply, field, findings);
  const parts: PartPlace = { turn: place.turn, index: place.reply, findings };
  const text = asString(part('text'));
  const buttons = asArray(part('buttons'));
  const list = asRecord(part('list'));
  const link = asRecord(part('link'));
  const linked = link ? renderLink(context, link, parts) : { inside: '' as const, below: '' as const };
  const below: Interpolation[] = [];
  if (buttons) below.push(renderButtons(context, buttons, linked.below, parts));
  else if (linked.below)
    below.push(
      h`<ul class="keyboard" aria-label="Link button">
        ${linked.below}
      </ul>`,
    );
  if (list) below.push(renderListSheet(context, list, parts));
  const quoted = renderQuote(context, part('replyTo'));
  const quote = quoted === '' ? '' : struckWhere(findings, partPointer(parts, 'replyTo'), quoted);
  const drawnImage = renderImage(part('image'));
  const image = drawnImage === '' ? '' : struckWhere(findings, partPointer(parts, 'image'), drawnImage);
  const shownText =
    text !== undefined && text !== ''
      ? h`<p class="text" dir="auto">${renderMessageText(text, partPointer(parts, 'text'), findings)}</p>`
      : '';
  const opener = list ? h`<p class="list-opener"><span aria-hidden="true">☰ </span>${openerLabel(list, parts)}</p>` : '';
  // A message with no part to draw is no bubble: its findings say what is wrong (the turn's line has its latency).
  const drawn = quote !== '' || image !== '' || shownText !== '' || linked.inside !== '' || opener !== '';
  const bubble = drawn
    ? h`<div class="bubble from-agent">
        ${quote} ${image} ${shownText} ${linked.inside} ${opener}
        ${place.reply === 0 ? h`<p class="meta">${count(place.latencyMs)} ms</p>` : ''}
      </div>`
    : '';
  const preview = text !== undefined ? renderBubblePreview(context, text, findings) : '';
  const quoteThis = drawn ? quoteButton(context, 'agent', place.turn, place.reply) : '';
  return row(
    'message',
    [bubble, below, preview, quoteThis],
    renderFindings(findings, 'Findings for this reply', context.place),
    notSent,
    describe(place, notSent),
  );
}

/** Bubbles drawn in the preview at most; the rest are counted. */
const MAX_PREVIEW_BUBBLES = 12;

/**
 * A text the `bubbles` warning was given for, drawn again cut by the bubble rule, under the wall it
 * was. The soft length and the unit it is counted in are the finding's own `limit` (the run's
 * contract or limits file said them); a warning that carries none (a report from before findings
 * carried it) draws no preview.
 */
function renderBubblePreview(context: ConversationContext, text: string, findings: readonly ReportedFinding[]): Markup | '' {
  const said = findings.find((finding) => finding.rule === 'bubbles');
  const counts = said?.limit?.counts;
  if (!said || !isTextCount(counts)) return '';
  const softLength = limitCounting(said, counts);
  if (softLength === undefined) return '';
  const rules: PlatformRules = { title: context.channelTitle, counting: countingUnitOf(counts), text: { softLength } };
  const bubbles = bubblesOf(text, rules) ?? [];
  if (bubbles.length <= 1) return '';
  const shown = bubbles.slice(0, MAX_PREVIEW_BUBBLES);
  return h`<div class="bubble-preview" role="group" aria-label="The same text as ${bubbles.length} chat bubbles, cut by the bubble rule">
    <p class="preview-title">As ${bubbles.length} bubbles, cut by the bubble rule (soft length ${softLength}):</p>
    ${shown.map((bubble) => h`<div class="bubble from-agent"><p class="text" dir="auto">${renderText(bubble.text)}</p></div>`)}
    ${bubbles.length > shown.length ? h`<p class="clipped">${count(bubbles.length - shown.length)} more bubbles</p>` : ''}
  </div>`;
}

function renderReaction(
  context: ConversationContext,
  reply: Record<string, unknown>,
  place: ReplyPlace,
  findings: readonly ReportedFinding[],
): Markup | '' {
  const notSent = hasError(findings);
  const target = context.personMessages.get(asString(reply.messageId) ?? '');
  // A reaction that is sent, on a message of this conversation, is drawn on that message only.
  if (target && findings.length === 0) return '';
  // One mark: an emoji on a message. With an error anywhere in it, no platform shows it; its findings say why.
  // Drawn but where its shape or ids are broken; struck where its platform refuses it.
  const emoji = asString(reply.emoji);
  const pointer = replyPointer(place.reply);
  const mark = h`<span class="reaction-emoji">${clip(emoji ?? '', 8).shown}</span>`;
  const lane =
    drawable(findings, pointer) && emoji !== undefined && target
      ? h`<div class="reaction-note">
          ${sentWhole(place.reply, findings) ? mark : struck(mark, faultUnder(findings, pointer) ?? pointer)}
          <span>Reaction on the person's “${renderText(target.summary, 60)}”</span>
        </div>`
      : '';
  return row('reaction', lane, renderFindings(findings, 'Findings for this reaction', context.place), notSent, describe(place, notSent));
}

function renderTemplate(
  context: ConversationContext,
  reply: Record<string, unknown>,
  place: ReplyPlace,
  findings: readonly ReportedFinding[],
): Markup {
  const notSent = hasError(findings);
  const parameters = asArray(reply.parameters) ?? [];
  // One card, drawn but where its shape is broken (its findings say why); struck where its platform refuses it.
  if (!drawable(findings, replyPointer(place.reply))) {
    return row('template', '', renderFindings(findings, 'Findings for this template', context.place), notSent, describe(place, notSent));
  }
  const templateLabel = h`<span aria-hidden="true">▤ </span>Template message`;
  const lane = h`<div class="bubble from-agent template">
    <p class="template-label">${struckWhere(findings, replyPointer(place.reply), templateLabel)}</p>
    <dl class="template-fields">
      <dt>name</dt>
      <dd><code>${label(reply.name)}</code></dd>
      <dt>language</dt>
      <dd><code>${label(reply.language)}</code></dd>
      ${parameters.slice(0, MAX_PARAMETERS).map(
        (parameter, index) =>
          h`<dt>{{${index + 1}}}</dt>
            <dd>${typeof parameter === 'string' ? renderText(parameter, 300) : label(parameter)}</dd>`,
      )}
    </dl>
    ${
      parameters.length > MAX_PARAMETERS ? h`<p class="clipped">${count(parameters.length - MAX_PARAMETERS)} more parameters</p>` : ''
    }${place.reply === 0 ? h`<p class="meta">${count(place.latencyMs)} ms</p>` : ''}
  </div>`;
  return row('template', lane, renderFindings(findings, 'Findings for this template', context.place), notSent, describe(place, notSent));
}

/** A reply this page cannot draw as a chat message: its JSON, cut short. */
export function renderRaw(value: unknown, title: string): Markup {
  return h`<div class="raw">
    <p class="raw-title">${title}</p>
    <pre><code>${excerpt(value, RAW_EXCERPT)}</code></pre>
  </div>`;
}

/** One reply of an answer, drawn as the platform would show it, with its findings beside it. */
export function renderReply(
  context: ConversationContext,
  reply: unknown,
  place: ReplyPlace,
  findings: readonly ReportedFinding[],
): Markup | '' {
  const record = asRecord(reply);
  switch (record?.type) {
    case 'message':
      return renderMessage(context, record, place, findings);
    case 'reaction':
      return renderReaction(context, record, place, findings);
    case 'template':
      return renderTemplate(context, record, place, findings);
    default: {
      // The contract has no such reply: no platform sends it.
      const notSent = true;
      return row(
        'unknown',
        h`<div class="bubble from-agent unknown">${renderRaw(reply, 'A reply of no known type')}</div>`,
        renderFindings(findings, 'Findings for this reply', context.place),
        notSent,
        describe(place, notSent),
      );
    }
  }
}
