/**
 * A channel's answer times over every play, as an inline SVG (no script, nothing loaded): how
 * many turns took how long, in bins, with p50 and p95 marked. The figures are in its text too.
 */
import { nearestRank } from '../../cases/quality/latency.js';
import { type Markup, h } from './markup.js';
import { count } from './values.js';

const WIDTH = 480;
const HEIGHT = 120;
const BINS = 24;
const AXIS = 18;
/** Room above the bars for the markers' labels. */
const TOP = 30;

export function renderLatencyChart(channelTitle: string, latencies: readonly number[]): Markup | '' {
  if (latencies.length === 0) return '';
  const sorted = [...latencies].sort((a, b) => a - b);
  const p50 = nearestRank(sorted, 50);
  const p95 = nearestRank(sorted, 95);
  const max = Math.max(sorted[sorted.length - 1]!, 1);
  const bins = new Array<number>(BINS).fill(0);
  for (const value of sorted) bins[Math.min(BINS - 1, Math.floor((value / max) * BINS))]!++;
  const tallest = Math.max(...bins);
  const barWidth = WIDTH / BINS;
  const x = (value: number): number => Math.round((value / max) * WIDTH * 10) / 10;
  const summary = `Answer times on ${channelTitle} over ${count(sorted.length)} turns: p50 ${count(p50)} ms, p95 ${count(p95)} ms, max ${count(max)} ms`;
  const bars = bins.map((binCount, index) => {
    const height = Math.round((binCount / tallest) * (HEIGHT - AXIS - TOP));
    return binCount === 0
      ? ''
      : h`<rect class="bar" x="${(index * barWidth + 1).toFixed(1)}" y="${HEIGHT - AXIS - height}" width="${(barWidth - 2).toFixed(1)}" height="${height}"></rect>`;
  });
  const marker = (value: number, name: string, labelY: number) =>
    h`<line class="mark-${name}" x1="${x(value)}" x2="${x(value)}" y1="${labelY + 3}" y2="${HEIGHT - AXIS}"></line><text class="mark-label" x="${Math.min(x(value) + 3, WIDTH - 80)}" y="${labelY}">${name} ${count(value)} ms</text>`;
  return h`<figure class="latency-chart">
    <svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${summary}" focusable="false">
      ${bars}${marker(p50, 'p50', 11)}${marker(p95, 'p95', 25)}
      <text class="axis" x="0" y="${HEIGHT - 4}">0 ms</text>
      <text class="axis" x="${WIDTH}" y="${HEIGHT - 4}" text-anchor="end">${count(max)} ms</text>
    </svg>
    <figcaption>${summary}.</figcaption>
  </figure>`;
}
