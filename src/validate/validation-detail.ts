/**
 * FastAPI's answer to a request its pydantic model refuses: 422 with `{ "detail": [{ "loc": [...],
 * "msg": "...", ... }] }` (pydantic 1 and 2 alike). A finding shows each refused field and why,
 * and says so when the field is one the contract fills with "" (a photo or a tap has no text).
 */

/** One refused field: where (`body.message.text`) and pydantic's words for why. */
export interface RefusedField {
  /** The `loc` path, dotted, indices in brackets: `body.message.attachments[0].data`. */
  where: string;
  /** The path inside the request body: `loc` without FastAPI's leading `body`. */
  field: readonly (string | number)[];
  message: string;
}

/** Refused fields quoted in a finding at the most. */
const QUOTED_AT_MOST = 5;

function isLocation(value: unknown): value is (string | number)[] {
  return Array.isArray(value) && value.length <= 32 && value.every((part) => typeof part === 'string' || typeof part === 'number');
}

function dotted(location: readonly (string | number)[]): string {
  return location.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('');
}

/** The refused fields of a FastAPI/pydantic `detail` body, or undefined for any other body. */
export function refusedFields(body: unknown): RefusedField[] | undefined {
  if (typeof body !== 'object' || body === null || !('detail' in body) || !Array.isArray(body.detail)) return undefined;
  const fields: RefusedField[] = [];
  for (const item of body.detail as unknown[]) {
    if (typeof item !== 'object' || item === null) return undefined;
    const { loc, msg } = item as Record<string, unknown>;
    if (!isLocation(loc) || typeof msg !== 'string') return undefined;
    const field = loc[0] === 'body' ? loc.slice(1) : loc;
    fields.push({ where: dotted(loc).slice(0, 200), field, message: msg.slice(0, 200) });
  }
  return fields.length > 0 ? fields : undefined;
}

/** The refused fields in one line: `body.message.text: String should have at least 1 character`. */
export function describeRefusedFields(fields: readonly RefusedField[]): string {
  const quoted = fields.slice(0, QUOTED_AT_MOST).map((field) => `${field.where}: ${field.message}`);
  const more = fields.length > QUOTED_AT_MOST ? `; and ${fields.length - QUOTED_AT_MOST} more` : '';
  return `detail: ${quoted.join('; ')}${more}`;
}

/** The request fields the contract sends as "" in some messages, and when. */
const SOMETIMES_EMPTY: readonly { field: readonly string[]; when: string }[] = [
  { field: ['message', 'text'], when: 'the person sends only a photo, a voice note or a video, or taps a button' },
];

/** The hint for refused fields the contract fills with "": undefined when none of them is one. */
export function emptyFieldHint(fields: readonly RefusedField[]): string | undefined {
  for (const { field, when } of SOMETIMES_EMPTY) {
    if (!fields.some((refused) => refused.field.length === field.length && field.every((part, index) => refused.field[index] === part)))
      continue;
    const name = field.join('.');
    return (
      `The contract sends ${name} as "" when ${when}: accept the empty string. ` +
      `In pydantic, drop min_length=1 from it (Field(min_length=1), constr(min_length=1)); keep it a plain str.`
    );
  }
  return undefined;
}
