/**
 * FastAPI's answer to a request its pydantic model refuses: 422 with `{ "detail": [{ "loc": [...],
 * "msg": "...", ... }] }` (pydantic 1 and 2 alike), and gin's binding error (`Key:
 * 'AgentRequest.Message.Text' Error:Field validation for 'Text' failed on the 'required' tag`). A
 * finding shows each refused field and why, and says so when the field is one the contract fills
 * with "" (a photo or a tap has no text): refusal-hints.ts says so.
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

/** One failed tag of go-playground/validator, as gin writes it: the struct path, the field, the tag. */
const GIN_FIELD_ERROR =
  /Key: '([A-Za-z0-9_.[\]]{1,200})' Error:Field validation for '[A-Za-z0-9_]{1,80}' failed on the '([a-z0-9_=]{1,40})' tag/g;

/**
 * The refused fields of gin's binding error, or undefined when the text holds none. The path is the
 * Go struct path less its type (`AgentRequest.Message.Text` is `message.text`), each name with its
 * first letter lower case: the JSON name when the struct follows Go's naming.
 */
export function ginRefusedFields(text: string): RefusedField[] | undefined {
  const fields = [...text.matchAll(GIN_FIELD_ERROR)].slice(0, 32).map(([, path, tag]) => {
    const field = path!
      .split('.')
      .slice(1)
      .map((name) => name.charAt(0).toLowerCase() + name.slice(1));
    return { where: field.join('.'), field, message: `failed on the '${tag}' tag` };
  });
  return fields.length > 0 ? fields : undefined;
}

/** The refused fields in one line: `body.message.text: String should have at least 1 character`. */
export function describeRefusedFields(fields: readonly RefusedField[]): string {
  const quoted = fields.slice(0, QUOTED_AT_MOST).map((field) => `${field.where}: ${field.message}`);
  const more = fields.length > QUOTED_AT_MOST ? `; and ${fields.length - QUOTED_AT_MOST} more` : '';
  return `detail: ${quoted.join('; ')}${more}`;
}
