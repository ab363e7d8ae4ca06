/**
 * The record after a run that played only part of what the last one did (`--failed`, a narrower
 * `--case` or `--channel`): every case of the record, each played one replaced by how it went this
 * time, the rest kept with when they were played (`playedAt`), as pytest's cache merges its
 * `lastfailed` and never replaces it. A run that played every recorded case again, one of another
 * target, or one that could not run, is recorded as it is.
 */
import { caseCounts, failsRun } from '../run/verdict.js';
import type { LastRun, LastRunCase } from './last-run-shape.js';

function pairKey(recorded: Pick<LastRunCase, 'case' | 'channel'>): string {
  return JSON.stringify([recorded.channel, recorded.case]);
}

/** When a recorded case was played: its own time, or, in a record of an older version, the record's. */
export function playedAt(recorded: LastRunCase, record: Pick<LastRun, 'finishedAt'>): string {
  return recorded.playedAt ?? record.finishedAt;
}

/** `now` merged into `previous`: see the module's comment. */
export function mergeRecords(previous: LastRun | undefined, now: LastRun): LastRun {
  if (!previous || previous.target !== now.target || previous.outcome === 'error' || now.outcome === 'error') return now;
  const played = new Map(now.cases.filter((recorded) => recorded.status !== 'not-run').map((recorded) => [pairKey(recorded), recorded]));
  if (previous.cases.every((recorded) => played.has(pairKey(recorded)))) return now;
  const kept = previous.cases.map((recorded) => played.get(pairKey(recorded)) ?? { ...recorded, playedAt: playedAt(recorded, previous) });
  const known = new Set(previous.cases.map(pairKey));
  const cases = [...kept, ...now.cases.filter((recorded) => !known.has(pairKey(recorded)))];
  const names = new Set(previous.channels.map((channel) => channel.name));
  const channels = [...previous.channels, ...now.channels.filter((channel) => !names.has(channel.name))];
  // The verdict a run of every recorded case would have (run/verdict.ts): a case kept not played fails it too.
  const failing = cases.some(failsRun);
  const verdict: Pick<LastRun, 'outcome' | 'exitCode'> =
    now.outcome === 'interrupted' || now.stopped !== null
      ? { outcome: now.outcome, exitCode: now.exitCode }
      : failing
        ? { outcome: 'failed', exitCode: 1 }
        : { outcome: now.outcome, exitCode: now.exitCode };
  return { ...now, ...verdict, channels, counts: caseCounts(cases), cases };
}

/** The times a record's cases were played, latest first, each with its cases: one time for a record of one whole run. */
export function playTimes(record: LastRun): { at: string; cases: LastRunCase[] }[] {
  const byTime = new Map<string, LastRunCase[]>();
  for (const recorded of record.cases) {
    const at = playedAt(recorded, record);
    byTime.set(at, [...(byTime.get(at) ?? []), recorded]);
  }
  return [...byTime].sort(([a], [b]) => b.localeCompare(a)).map(([at, cases]) => ({ at, cases }));
}
