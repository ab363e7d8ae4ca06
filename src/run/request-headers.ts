/**
 * The headers a run sends besides its own: `--header "Name: value"` (not secret, shown as given)
 * and `--header-env "Name=VAR"` (the value read from VAR, then treated like the token: never
 * printed or reported). Vetted before anything is sent; no message repeats a secret value.
 */
import { OptionError } from '../core/option-error.js';
import type { RequestHeader } from '../http/client.js';
import type { AddedHeader } from '../validate/header-size-hints.js';

/** A header as planned: what the client sends, and how the run shows it. */
export interface PlannedHeader extends RequestHeader {
  /** The name as it was given (sent in lower case). */
  shownName: string;
  /** For a secret one: the variable it was read from, and where that was set. */
  variable?: string;
  source?: VariableSource;
}

/** Where a variable's value came from: the environment, or a .env file (its path). */
export type VariableSource = { from: 'environment' } | { from: 'dotenv'; file: string };

/** A variable's value and its source, or undefined when it is set nowhere. */
export type Lookup = (variable: string) => { value: string; source: VariableSource } | undefined;

/** The request's own headers, which check-endpoint writes itself. */
const RESERVED = new Set(['host', 'content-length', 'content-type', 'transfer-encoding']);
/** RFC 9110's token: what a header name may be made of. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/**
 * What a shell can expand: the variables a reproduce line can name. A value given where a variable
 * name belongs that is not one may be the secret itself, pasted in its place: it is never repeated.
 */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What a message says of a value that should have named a variable and does not: what is wrong, never the value. */
export const NOT_A_VARIABLE_NAME =
  'is not the name of an environment variable (letters, digits and _, not starting with a digit); the value is not repeated here, as it may be the secret itself pasted in its place';
/** Characters an HTTP header value cannot carry: line breaks, NUL, and anything past Latin-1. */
export const NOT_IN_A_HEADER = /[\r\n\0]|[^\t\x20-\x7e\x80-\xff]/;

type HeaderField = 'headers' | 'secretHeaders';

function vetName(name: string, field: HeaderField): string {
  if (!HEADER_NAME.test(name)) {
    throw new OptionError(
      field,
      (on) => `${on.name(field)}: "${name.slice(0, 60)}" is not a valid header name (letters, digits and !#$%&'*+-.^_\`|~ only)`,
    );
  }
  const lower = name.toLowerCase();
  if (RESERVED.has(lower))
    throw new OptionError(field, (on) => `${on.name(field)}: ${lower} is written by check-endpoint itself and cannot be given`);
  return lower;
}

/** The planned headers from the library's options; throws an OptionError for anything that cannot be sent. */
export function planHeaders(
  plain: Readonly<Record<string, string>> | undefined,
  secret: Readonly<Record<string, string>> | undefined,
  lookup: Lookup,
  where: string,
): PlannedHeader[] {
  const planned: PlannedHeader[] = [];
  const add = (header: PlannedHeader, field: HeaderField): void => {
    if (planned.some((other) => other.name === header.name)) {
      throw new OptionError(field, (on) => `${on.name(field)}: ${header.name} is given twice`);
    }
    planned.push(header);
  };
  for (const [shownName, value] of Object.entries(plain ?? {})) {
    const name = vetName(shownName, 'headers');
    if (name === 'authorization' || name === 'proxy-authorization') {
      throw new OptionError(
        'headers',
        (on) =>
          `${on.name('headers')}: ${name} carries a secret; give it with ${on.name('secretHeaders')} ${name}=VAR, which is never printed`,
      );
    }
    if (NOT_IN_A_HEADER.test(value)) {
      throw new OptionError(
        'headers',
        (on) => `${on.name('headers')} ${shownName}: the value holds a line break or a character an HTTP header cannot carry`,
      );
    }
    add({ name, shownName, value: value.trim(), secret: false }, 'headers');
  }
  for (const [shownName, variable] of Object.entries(secret ?? {})) {
    if (!VARIABLE_NAME.test(variable)) {
      // Neither part is repeated: `NAME=VAR` may be a secret pasted whole (`abc123==` splits at its `=`).
      throw new OptionError(
        'secretHeaders',
        (on) => `${on.name('secretHeaders')}: the variable given for a header ${NOT_A_VARIABLE_NAME}; write NAME=VAR, the value in VAR`,
      );
    }
    const fail = (problem: string): never => {
      throw new OptionError('secretHeaders', (on) => `${on.name('secretHeaders')} ${shownName}=${variable}: ${problem}`);
    };
    const name = vetName(shownName, 'secretHeaders');
    const found = lookup(variable);
    if (found === undefined) return fail(`${variable} is not set (${where})`);
    if (found.value === '') fail(`${variable} is empty`);
    if (NOT_IN_A_HEADER.test(found.value)) {
      fail(
        `${variable} holds a line break or a character an HTTP header cannot carry; check how it was set (a trailing newline is common)`,
      );
    }
    add({ name, shownName, value: found.value, secret: true, variable, source: found.source }, 'secretHeaders');
  }
  return planned;
}

/** The headers added to every request, by name, size and variable (never value): for the hints on headers too large. */
export function addedHeaders(headers: readonly PlannedHeader[]): AddedHeader[] {
  return headers.map((header) => ({
    name: header.shownName,
    bytes: Buffer.byteLength(`${header.name}: ${header.value}`, 'latin1'),
    ...(header.variable ? { variable: header.variable } : {}),
  }));
}
