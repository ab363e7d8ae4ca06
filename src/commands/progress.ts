/**
 * One progress line on stderr for long runs (--runs 20 against a slow agent takes minutes):
 * plays done of all, failures so far, time elapsed, rewritten in place and cleared at the end.
 * Only where stderr is a terminal and not in CI: a log file or a pipe never gets one.
 */
import { now } from '../core/clock.js';
import type { CaseProgress } from '../run/options.js';

/** Redrawn at most this often. */
const REDRAW_MS = 100;
const CLEAR_LINE = '\r\u001b[2K';

export interface Progress {
  /** A play ended: `done` of `total`, `failed` of them failed. */
  update(done: number, total: number, failed: number): void;
  /** What a long case in flight is doing, after the plays (`explore on whatsapp: 120 of 300 turns, 1 problem`); undefined when none is. */
  detail(text: string | undefined): void;
  /** Takes the line away while other lines are written, then puts it back. */
  around(write: () => void): void;
  /** Takes the line away for good. */
  clear(): void;
}

/** `412 of 500 plays · 3 failed · 1m 12s` */
export function progressLine(done: number, total: number, failed: number, elapsedMs: number): string {
  const seconds = Math.floor(elapsedMs / 1000);
  const elapsed = seconds >= 60 ? `${Math.floor(seconds / 60)}m ${seconds % 60}s` : `${seconds}s`;
  return `${done} of ${total} ${total === 1 ? 'play' : 'plays'} · ${failed} failed · ${elapsed}`;
}

/** A long case's part of the line: `explore on whatsapp: 120 of 300 turns, 1 found`; none once it is done. */
export function caseProgressText(going: CaseProgress): string | undefined {
  if (going.done >= going.total) return undefined;
  return `${going.case} on ${going.channel}: ${going.done} of ${going.total} turns${going.found ? `, ${going.found} found` : ''}`;
}

const NO_PROGRESS: Progress = { update: () => {}, detail: () => {}, around: (write) => write(), clear: () => {} };

export function createProgress(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): Progress {
  if (!stream.isTTY || env.CI) return NO_PROGRESS;
  const started = now();
  let line = '';
  let plays = { done: 0, total: 0, failed: 0 };
  let detailText: string | undefined;
  let drawnAt = -Infinity;
  const draw = (): void => void stream.write(`${CLEAR_LINE}${line}`);
  const redraw = (final: boolean): void => {
    line = `${progressLine(plays.done, plays.total, plays.failed, now() - started)}${detailText ? ` · ${detailText}` : ''}`;
    if (now() - drawnAt < REDRAW_MS && !final) return;
    drawnAt = now();
    draw();
  };
  return {
    update(done, total, failed) {
      plays = { done, total, failed };
      redraw(done >= total);
    },
    detail(text) {
      detailText = text;
      redraw(false);
    },
    around(write) {
      if (line === '') return write();
      stream.write(CLEAR_LINE);
      write();
      draw();
    },
    clear() {
      if (line !== '') stream.write(CLEAR_LINE);
      line = '';
    },
  };
}
