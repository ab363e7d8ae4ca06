/**
 * What a platform would not send, drawn struck: the part of a reply a `platform` error is at (the
 * eleventh list row, a list opener past its length, buttons on SMS, a text past its limit), so the
 * value at fault is on the page beside its finding, never left out. Where the limit matters (which
 * rows, which buttons, where a text is cut), it is the finding's own `limit` (the run's contract or
 * limits file said it, and the check counted against it), never read from its message's words and
 * never one the drawing knows: a finding with none (a report written before findings carried it)
 * has its whole part struck.
 */
import type { LimitCount } from '../../core/findings.js';
import type { ReportedFinding } from '../../core/report.js';
import { type TextCount, isTextCount, prefixIn } from '../../platforms/counting.js';
import { errorUnder } from './drawn-parts.js';
import { type Markup, h } from './markup.js';

/** A platform's errors only: what it would not send. */
const PLATFORM: ReadonlySet<string> = new Set(['platform']);

/** The platform's errors exactly at a JSON pointer. */
export function faultsAt(findings: readonly ReportedFinding[], pointer: string): ReportedFinding[] {
  return findings.filter((finding) => finding.severity === 'error' && finding.rule === 'platform' && finding.path === pointer);
}

/** The pointer of the first platform error at a JSON pointer or under it (`/replies/0/buttons/1/label` under `/replies/0/buttons/1`), or undefined. */
export function faultUnder(findings: readonly ReportedFinding[], pointer: string): string | undefined {
  return errorUnder(PLATFORM, findings, pointer)?.path;
}

/**
 * The most a finding's part may hold when its limit counts what the drawing counts there (`items`
 * of buttons, `rows` or `sections` of a list); undefined when it carries no such limit (`SMS shows
 * no buttons`, a report from before findings carried one, or a limit that is no count).
 */
export function limitCounting(finding: ReportedFinding, counts: LimitCount): number | undefined {
  const limit: unknown = finding.limit;
  // A report is data: one written by hand, or by another version, may hold anything here (null too).
  if (typeof limit !== 'object' || limit === null || !('counts' in limit) || limit.counts !== counts || !('max' in limit)) return undefined;
  return typeof limit.max === 'number' && Number.isSafeInteger(limit.max) && limit.max >= 0 ? limit.max : undefined;
}

/**
 * From which item on a sequence at `pointer` is not sent, by its findings there: the least limit
 * counting `counts` (items past it), 0 (every item) when one carries none, undefined when none is there.
 */
export function firstRefused(findings: readonly ReportedFinding[], pointer: string, counts: LimitCount = 'items'): number | undefined {
  const at = faultsAt(findings, pointer);
  if (at.length === 0) return undefined;
  return Math.min(...at.map((finding) => limitCounting(finding, counts) ?? 0));
}

/** A text's limit as a finding carries it: at most `max` units, counted in `counts`; undefined where it carries none. */
function textLimit(finding: ReportedFinding): { max: number; counts: TextCount } | undefined {
  const counts = finding.limit?.counts;
  if (!isTextCount(counts)) return undefined;
  const max = limitCounting(finding, counts);
  return max === undefined ? undefined : { max, counts };
}

/**
 * Where the part of a text at `pointer` that its platform would send ends, by the platform errors
 * there: the UTF-16 index its first `max` units end at, in the unit the check counted (the least of
 * them); 0 (all of it refused) when one carries no text limit; undefined when none is there.
 */
export function sentTextEnd(findings: readonly ReportedFinding[], pointer: string, text: string): number | undefined {
  const at = faultsAt(findings, pointer);
  if (at.length === 0) return undefined;
  return Math.min(
    ...at.map((finding) => {
      const limit = textLimit(finding);
      return limit ? prefixIn(text, limit.counts, limit.max) : 0;
    }),
  );
}

/**
 * Content drawn as not sent: struck through (`<del>`, which a screen reader may not announce, so
 * its words say it first), marked with the pointer of the finding beside it.
 */
export function struck(content: Markup | string, pointer: string): Markup {
  return h`<del class="at-fault" data-pointer="${pointer}"><span class="sr-only">Not sent (see the finding at ${pointer}): </span>${content}</del>`;
}

/** `struck` at the finding where a platform error is at or under `pointer`; the content as it is elsewhere. */
export function struckWhere(findings: readonly ReportedFinding[], pointer: string, content: Markup | string): Markup | string {
  const fault = faultUnder(findings, pointer);
  return fault === undefined ? content : struck(content, fault);
}
