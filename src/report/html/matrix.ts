import { findingRules } from '../../core/findings.js';
import type { ChannelReport } from '../../core/report.js';
import { type CaseAnchor, STATE_LABEL, caseState } from './conversation.js';
import { type Markup, h } from './markup.js';

/** The channels (rows) and case ids (columns) of a report, in their order of first appearance. */
export interface MatrixLayout {
  channels: { name: string; title: string }[];
  caseIds: string[];
  /** The case drawn for a channel and case id (the first, should a report hold two). */
  cell(channel: string, caseId: string): CaseAnchor | undefined;
}

export function matrixLayout(channels: readonly ChannelReport[], anchors: readonly CaseAnchor[]): MatrixLayout {
  const rows = new Map<string, string>();
  for (const channel of channels) rows.set(channel.name, channel.title ?? channel.name);
  const caseIds: string[] = [];
  const cells = new Map<string, CaseAnchor>();
  for (const anchor of anchors) {
    const { channel, id } = anchor.caseReport;
    if (!rows.has(channel)) rows.set(channel, anchor.channelTitle);
    if (!caseIds.includes(id)) caseIds.push(id);
    const key = JSON.stringify([channel, id]);
    if (!cells.has(key)) cells.set(key, anchor);
  }
  return {
    channels: [...rows].map(([name, title]) => ({ name, title })),
    caseIds,
    cell: (channel, caseId) => cells.get(JSON.stringify([channel, caseId])),
  };
}

function rulesOf(anchor: CaseAnchor, severity: 'error' | 'warning'): string[] {
  return [...new Set(anchor.caseReport.findings.filter((finding) => finding.severity === severity).flatMap(findingRules))];
}

function renderCell(channelTitle: string, caseId: string, anchor: CaseAnchor | undefined): Markup {
  if (!anchor) return h`<td class="cell none"><span aria-hidden="true">—</span><span class="sr-only">not run</span></td>`;
  const state = caseState(anchor.caseReport);
  const errors = rulesOf(anchor, 'error');
  const rules = errors.length ? errors : rulesOf(anchor, 'warning');
  const why = rules.slice(0, 3).join(', ') + (rules.length > 3 ? ', …' : '');
  const mark = h`<span class="mark" aria-hidden="true">${STATE_LABEL[state].mark}</span>`;
  const { runs, passedRuns } = anchor.caseReport;
  const rate = runs > 1 ? h` <span class="pass-rate">${passedRuns}/${runs}</span>` : '';
  const text = anchor.caseReport.label === 'flaky' ? 'Flaky' : STATE_LABEL[state].text;
  const label = h`<span class="state-line">${mark} <span class="state-text">${text}</span>${rate}</span>`;
  const expected = anchor.caseReport.expected ? ' (expected by the baseline)' : '';
  const rulesNote = why ? h`<span class="sr-only">, rules: </span><span class="why">${why}${expected}</span>` : '';
  return h`<td class="cell ${state}" data-case="${caseId}" data-state="${state}">
    <a href="#${anchor.anchor}">${label}<span class="sr-only">: ${caseId} on ${channelTitle}</span>${rulesNote}</a>
  </td>`;
}

/** A case id that may wrap after each `/` (quality/forward-compat). */
function breakable(id: string): Markup {
  return h`${id.split('/').map((part, index) => h`${index === 0 ? '' : h`/<wbr>`}<span class="nobr">${part}</span>`)}`;
}

const LEGEND = h`<span class="legend-item pass">✓ pass</span> <span class="legend-item warning">! passed with warnings</span>
  <span class="legend-item fail">✗ fail</span> <span class="legend-item none">— not run</span>`;

/** The matrix: a row per channel, a column per case, each cell pass, warning or fail, linking to its conversation. */
export function renderMatrix(layout: MatrixLayout): Markup {
  // Scrolls sideways when the cases are many: focusable, so the keyboard can scroll it too.
  return h`<div class="table-wrap" role="region" aria-label="Cases by channel, scrollable" tabindex="0">
    <table class="matrix">
      <caption>
        Each cell links to its conversation below.
        <span class="legend">${LEGEND}</span>
      </caption>
      <thead>
        <tr>
          <th scope="col">Channel</th>
          ${layout.caseIds.map((id) => h`<th scope="col"><code>${breakable(id)}</code></th>`)}
        </tr>
      </thead>
      <tbody>
        ${layout.channels.map(
          (channel) =>
            h`<tr data-channel="${channel.name}">
              <th scope="row">
                ${channel.title}${channel.title !== channel.name ? h` <span class="channel-name">${channel.name}</span>` : ''}
              </th>
              ${layout.caseIds.map((id) => renderCell(channel.title, id, layout.cell(channel.name, id)))}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
