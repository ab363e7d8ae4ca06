/**
 * A turn opened on the chat page: the request and the answer as sent and received (the headers
 * with every secret `<redacted>`, the bodies as JSON), and the line that sends the turn again. A
 * body over 1 KB (a photo) is shown with its attachment's data cut (its size and digest in its
 * place) and can be downloaded whole; its curl line reads it from that file.
 */
import { leftOutData } from '../run/recorded-request.js';
import { MAX_INLINE_REPRODUCE_BODY, curlCommand, curlFileCommand } from '../run/reproduce.js';
import type { ReproduceTarget } from '../run/reproduce-target.js';
import { type Markup, h } from '../report/html/markup.js';
import { clip } from '../report/html/values.js';
import type { ChatTurn } from './chat-conversation.js';

/** The longest JSON drawn in the pane; the rest is counted (a hostile answer may be megabytes). */
const MAX_SHOWN_JSON = 20_000;

/** The name a turn's request body is downloaded as. */
export function requestFileName(index: number): string {
  return `turn-${index + 1}-request.json`;
}

function jsonBlock(value: unknown): Markup {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  const { shown, hidden } = clip(text, MAX_SHOWN_JSON);
  return h`<pre tabindex="0"><code>${shown}</code></pre>${hidden ? h`<p class="clipped">… ${hidden.toLocaleString('en-US')} more characters not shown</p>` : ''}`;
}

function headerList(headers: Readonly<Record<string, string>>): Markup {
  return h`<pre tabindex="0"><code>${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n')}</code></pre>`;
}

/** The line that sends the turn again: curl with the body inline, or (a body over 1 KB) read from its downloaded file. */
export function reproduceOf(turn: ChatTurn, index: number, target: ReproduceTarget | undefined): string | undefined {
  if (target === undefined) return undefined;
  const inline = !leftOutData(turn.report.request) && Buffer.byteLength(turn.body) <= MAX_INLINE_REPRODUCE_BODY;
  return inline
    ? curlCommand(target.url, turn.body.toString(), target.headers)
    : curlFileCommand(target.url, requestFileName(index), target.headers);
}

/**
 * The pane of a turn: closed until its button opens it, its request, its answer, its reproduce line.
 * A button and a `hidden` pane (the page's script toggles them), not a <details>: Chromium styles a
 * <details> inserted into a long page in time that grows with the page (measured: 0.9 ms at turn
 * 12, 3 ms at turn 200, for the rows of one turn), so turn 200 would be drawn slower than turn 1.
 * `paneId` is unique on the page.
 */
export function renderTurnDetails(
  turn: ChatTurn,
  index: number,
  target: ReproduceTarget | undefined,
  download: string,
  paneId: string,
): Markup {
  const { report } = turn;
  const reproduce = reproduceOf(turn, index, target);
  const answerLine = report.status === null ? 'No answer' : `HTTP ${report.status} · ${report.latencyMs.toLocaleString('en-US')} ms`;
  return h`<li class="row system turn-details-row">
    <div class="lane">
      <div class="turn-details" data-turn="${index}">
        <button type="button" class="turn-open" aria-expanded="false" aria-controls="${paneId}">
          Turn ${index + 1}: the request and the answer
        </button>
        <div class="turn-pane" id="${paneId}" hidden>
        <p class="pane-title">Request</p>
        <p class="pane-note">POST, headers as sent (every secret <code>&lt;redacted&gt;</code>):</p>
        ${headerList(turn.sentHeaders)}
        <p class="pane-note">Body${leftOutData(report.request) ? ' (the attachment’s data cut: its size and digest in its place)' : ''}:</p>
        ${jsonBlock(report.request)}
        <p class="pane-note"><a href="${download}" download="${requestFileName(index)}">Download the body as sent</a></p>
        <p class="pane-title">Answer: ${answerLine}</p>
        ${turn.answerHeaders ? headerList(turn.answerHeaders) : h`<p class="pane-note">No HTTP answer came.</p>`}
        ${report.answer !== null && report.answer !== undefined ? jsonBlock(report.answer) : h`<p class="pane-note">No JSON body.</p>`}
        ${
          reproduce !== undefined
            ? h`<p class="pane-title">Send it again</p>
              <pre tabindex="0"><code>${reproduce}</code></pre>`
            : h`<p class="pane-note">No curl line: the agent is a handler in this process, with no URL to send to.</p>`
        }
        </div>
      </div>
    </div>
    <div class="notes"></div>
  </li>`;
}
