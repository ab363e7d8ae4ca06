/**
 * What a fetch handler returned, read by its shape (status, headers, body) rather than by
 * `instanceof Response`: a Response made by another copy of the Fetch API (the `undici` package, a
 * polyfill, another realm) is a Response all the same, though not this realm's class.
 */

/** The part of a body stream's reader the checker uses. */
export interface BodyReader {
  /** `{ done, value }`, as the stream gave it: checked by the reader of the body. */
  read(): Promise<unknown>;
  cancel(): Promise<unknown>;
}

export interface ResponseShape {
  status: number;
  statusText: string;
  headers: [string, string][];
  /** Its body's reader, or null for no body. */
  reader: () => BodyReader | null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function hasMethod<Name extends string>(value: unknown, name: Name): value is Record<Name, (...args: never[]) => unknown> {
  return isObject(value) && typeof value[name] === 'function';
}

/** The headers' pairs, when `headers` is a Headers of any copy (it has entries() giving string pairs). */
function headerPairs(headers: unknown): [string, string][] | undefined {
  if (!hasMethod(headers, 'entries')) return undefined;
  const entries: unknown = headers.entries();
  if (!isObject(entries) || !(Symbol.iterator in entries)) return undefined;
  const pairs: [string, string][] = [];
  for (const pair of entries as Iterable<unknown>) {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') return undefined;
    pairs.push([pair[0], pair[1]]);
  }
  return pairs;
}

function bodyReader(body: unknown): (() => BodyReader | null) | undefined {
  if (body === null || body === undefined) return () => null;
  if (!hasMethod(body, 'getReader')) return undefined;
  return () => {
    const reader: unknown = body.getReader();
    if (!hasMethod(reader, 'read') || !hasMethod(reader, 'cancel')) throw new TypeError('its body has no reader with read() and cancel()');
    return { read: async () => reader.read(), cancel: async () => reader.cancel() };
  };
}

/** The Response's shape, or undefined when `value` is not one: a status, headers with entries(), a body stream or none. */
export function responseShape(value: unknown): ResponseShape | undefined {
  if (!isObject(value) || typeof value.status !== 'number' || !Number.isInteger(value.status)) return undefined;
  const headers = headerPairs(value.headers);
  const reader = bodyReader(value.body);
  if (headers === undefined || reader === undefined) return undefined;
  return { status: value.status, statusText: typeof value.statusText === 'string' ? value.statusText : '', headers, reader };
}
