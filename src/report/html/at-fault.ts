/**
 * What a platform would not send, drawn struck: the part of a reply a `platform` error is at (the
 * eleventh list row, a list opener past its length, buttons on SMS, a text past its limit), so the
 * value at fault is on the page beside its finding, never left out. Where the limit matters (which
 * rows, which buttons, where a text is cut), it is the finding's own (`shows at most 10`): the run's
 * contract or limits file said it, and the drawing never knows another.
 */
import type { ReportedFinding } from '../../core/report.js';
import { type Markup, h } from './markup.js';

/** The platform's errors exactly at a JSON pointer. */
export function faultsAt(findings: readonly ReportedFinding[], pointer: string): ReportedFinding[] {
  return findings.filter((finding) => finding.severity === 'error' && finding.rule === 'platform' && finding.path === pointer);
}

/** The pointer of the first platform error at a JSON pointer or under it (`/replies/0/buttons/1/label` under `/replies/0/buttons/1`), or undefined. */
export function faultUnder(findings: readonly ReportedFinding[], pointer: string): string | undefined {
  const under = `${pointer}/`;
  return findings.find(
    (finding) =>
      finding.severity === 'error' && finding.rule === 'platform' && (finding.path === pointer || finding.path.startsWith(under)),
  )?.path;
}

/** The limit a platform finding names (`…; WhatsApp shows at most 10, so this reply is not sent`), or undefined when it names none (`SMS shows no buttons`). */
export function saidLimit(finding: ReportedFinding): number | undefined {
  const found = /\bshows at most (\d{1,9})\b/.exec(finding.message);
  return found ? Number(found[1]) : undefined;
}

/** What a finding at a list's sections counts: its rows in all sections together, or its sections. */
export function countedAtSections(finding: ReportedFinding): 'rows' | 'sections' {
  return /^\d+ rows in all sections together;/.test(finding.message) ? 'rows' : 'sections';
}

/**
 * From which item on a sequence at `pointer` is not sent, by its findings there: the limit the
 * first of them names (items past it), 0 (every item) when one names none, undefined when none is there.
 */
export function firstRefused(findings: readonly ReportedFinding[], pointer: string): number | undefined {
  const at = faultsAt(findings, pointer);
  if (at.length === 0) return undefined;
  return Math.min(...at.map((finding) => saidLimit(finding) ?? 0));
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
