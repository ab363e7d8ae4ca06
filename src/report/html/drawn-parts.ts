import { type Rule, replyPointer } from '../../core/findings.js';
import type { ReportedFinding } from '../../core/report.js';

/** The rules whose errors say a platform would not send a reply: the answer's shape, the platform's limits, the ids it names. */
const REFUSING_RULES: ReadonlySet<string> = new Set<Rule>(['schema', 'platform', 'reference']);

/** The rules whose errors leave a part with nothing true to draw: a shape the contract has not (a javascript: url, null sections), an id naming no message. */
const HIDING_RULES: ReadonlySet<string> = new Set<Rule>(['schema', 'reference']);

/** The first error of one of `rules` at a JSON pointer or under it (`/replies/0/buttons/1/label` under `/replies/0/buttons/1`), or undefined. */
export function errorUnder(rules: ReadonlySet<string>, findings: readonly ReportedFinding[], pointer: string): ReportedFinding | undefined {
  const under = `${pointer}/`;
  return findings.find(
    (finding) => finding.severity === 'error' && rules.has(finding.rule) && (finding.path === pointer || finding.path.startsWith(under)),
  );
}

function noErrorOf(rules: ReadonlySet<string>, findings: readonly ReportedFinding[], pointer: string): boolean {
  return errorUnder(rules, findings, pointer) === undefined;
}

/**
 * The page draws what the agent sent, as the platform would show it, and what the platform would
 * not send struck (at-fault.ts). A part of a reply (a message's text, image, link, list, buttons
 * or quote; a reaction or a template as a whole) is drawn unless an error of the answer's shape or
 * of its ids is at its JSON pointer or under it: an image whose url is refused
 * (`/replies/0/image/url`) draws no image box, a list with null sections (`/replies/3/list`) no
 * opener, a quote of an unknown message nothing. Its finding, drawn beside the reply, says what is
 * wrong instead. A platform's error hides nothing: the eleventh row, a list opener past its length,
 * buttons on SMS are drawn, struck. A null or absent part has nothing to draw.
 *
 * Warnings hide nothing: the platform shows what they are about (a long text in several bubbles,
 * Markdown as raw characters). Nor do a case's own rules: they judge what the person is shown
 * (`acme/greets-by-name` at `/replies/0/text`), which stays in view.
 */
export function drawable(findings: readonly ReportedFinding[], pointer: string): boolean {
  return noErrorOf(HIDING_RULES, findings, pointer);
}

/** A message's part as drawn: its value where no error of its shape or ids is at or under `/replies/<index>/<field>`, else undefined. */
export function drawnPart(
  reply: Readonly<Record<string, unknown>>,
  index: number,
  field: string,
  findings: readonly ReportedFinding[],
): unknown {
  return drawable(findings, replyPointer(index, field)) ? reply[field] : undefined;
}

/** Whether a reply drawn as one mark (a reaction, a template) is sent: no error of the answer's shape, the platform or its ids at or under `/replies/<index>`. */
export function sentWhole(index: number, findings: readonly ReportedFinding[]): boolean {
  return noErrorOf(REFUSING_RULES, findings, replyPointer(index));
}
