import { type Rule, replyPointer } from '../../core/findings.js';
import type { ReportedFinding } from '../../core/report.js';

/** The rules whose errors say a platform would not show a part: the answer's shape, the platform's limits, the ids it names. */
const REFUSING_RULES: ReadonlySet<string> = new Set<Rule>(['schema', 'platform', 'reference']);

/**
 * The page draws only what the platform would show. A part of a reply (a message's text, image,
 * link, list, buttons or quote; a reaction or a template as a whole) is drawn only when no error
 * of those rules is at its JSON pointer or under it: an image whose url is refused
 * (`/replies/0/image/url`) draws no image box, a list with null sections (`/replies/3/list`) no
 * opener. Its finding, drawn beside the reply, says what is wrong instead. A null or absent part
 * has nothing to draw.
 *
 * Warnings hide nothing: the platform shows what they are about (a long text in several bubbles,
 * Markdown as raw characters). Nor do a case's own rules: they judge what the person is shown
 * (`acme/greets-by-name` at `/replies/0/text`), which stays in view.
 */
export function faultless(findings: readonly ReportedFinding[], pointer: string): boolean {
  const under = `${pointer}/`;
  return !findings.some(
    (finding) =>
      finding.severity === 'error' && REFUSING_RULES.has(finding.rule) && (finding.path === pointer || finding.path.startsWith(under)),
  );
}

/** A message's part as drawn: its value where no error is at or under `/replies/<index>/<field>`, else undefined. */
export function drawnPart(
  reply: Readonly<Record<string, unknown>>,
  index: number,
  field: string,
  findings: readonly ReportedFinding[],
): unknown {
  return faultless(findings, replyPointer(index, field)) ? reply[field] : undefined;
}

/** Whether a reply drawn as one mark (a reaction, a template) is drawn: no error at or under `/replies/<index>`. */
export function drawnWhole(index: number, findings: readonly ReportedFinding[]): boolean {
  return faultless(findings, replyPointer(index));
}
