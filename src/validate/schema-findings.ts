import type { ErrorObject } from 'ajv';
import { type Finding, MAX_FINDINGS, error, excerpt, jsonType, leftOutNote, pointer } from '../core/findings.js';
import { type Anchor, anchorOf, isSchema } from '../contract/prepare-schema.js';
import { closestName } from './did-you-mean.js';
import { commandWords } from '../core/command-words.js';
import { emojiWithoutVariationSelectors } from '../platforms/emoji.js';
import { whyBrowsersRefuse } from '../formats/schema-formats.js';

type Schema = Record<string, unknown>;

/** The pointer `levels` segments up from `path`, never above the whole document (`""`). */
function parentPointer(path: string, levels: number): string {
  let end = path.length;
  for (let level = 0; level < levels && end > 0; level++) end = path.lastIndexOf('/', end - 1);
  return path.slice(0, Math.max(end, 0));
}

/** The value a JSON pointer names in the document, or undefined. */
function valueAt(document: unknown, path: string): unknown {
  let node = document;
  let start = 1;
  while (start <= path.length && path !== '') {
    const slash = path.indexOf('/', start);
    const end = slash < 0 ? path.length : slash;
    const raw = path.slice(start, end);
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
    start = end + 1;
  }
  return node;
}

/** The reply types a discriminated `oneOf` knows, in order. */
function knownTypes(parent: Schema): string[] {
  const branches = Array.isArray(parent.oneOf) ? parent.oneOf : [];
  return branches.flatMap((branch: unknown) => {
    const type = isSchema(branch) && isSchema(branch.properties) ? branch.properties.type : undefined;
    return isSchema(type) && typeof type.const === 'string' ? [type.const] : [];
  });
}

/** The property names a schema allows, in order. */
function allowedProperties(parent: Schema): string[] {
  return isSchema(parent.properties) ? Object.keys(parent.properties) : [];
}

/** What agents call their list of replies instead of `replies`. */
const REPLIES_SYNONYMS = new Set(['messages', 'message', 'reply', 'response', 'responses', 'output', 'outputs', 'answer', 'answers']);

/**
 * `replies`, when the answer's only property is another word for it (`messages`, `output`): the
 * agent named its list differently, and renaming it is the fix.
 */
function repliesRenamed(property: string, allowed: readonly string[], path: string, answer: unknown): 'replies' | undefined {
  const only = path === '' && typeof answer === 'object' && answer !== null && Object.keys(answer).length === 1;
  return only && allowed.includes('replies') && REPLIES_SYNONYMS.has(property.toLowerCase()) ? 'replies' : undefined;
}

/** A "did you mean" for a typo; a rename for a list of replies named otherwise; else, to remove it. */
function unknownPropertyHint(property: string, allowed: readonly string[], path: string, answer: unknown): string {
  const guess = closestName(property, allowed);
  if (guess) return `did you mean "${guess}"?`;
  if (!repliesRenamed(property, allowed, path, answer)) return 'Remove it: the answer schema allows no other properties.';
  return Array.isArray(valueAt(answer, pointer(path, property)))
    ? `Rename ${excerpt(property)} to "replies": the answer is { "replies": [...] }.`
    : `Answer { "replies": [{ "type": "message", "text": "..." }] }: the replies go in a list named "replies", not ${excerpt(property)}.`;
}

function withoutFullStop(sentence: string): string {
  return sentence.endsWith('.') ? sentence.slice(0, -1) : sentence;
}

function describeError(err: ErrorObject, answer: unknown): Finding | undefined {
  const path = err.instancePath;
  const parent = (err.parentSchema ?? {}) as Schema;
  const data = err.data;
  const params = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case 'if':
      // "must match then/else": the branch's own errors say what is wrong.
      return undefined;
    case 'discriminator': {
      const types = knownTypes(parent);
      const value = valueAt(answer, pointer(path, 'type'));
      if (params.error === 'mapping') {
        const guess = closestName(String(value), types);
        return error(
          'schema',
          pointer(path, 'type'),
          `unknown reply type ${excerpt(value)}; expected one of ${types.join(', ')}`,
          guess ? `did you mean "${guess}"?` : null,
        );
      }
      return error(
        'schema',
        pointer(path, 'type'),
        value === undefined
          ? `a reply needs a "type": one of ${types.join(', ')}; this one has none`
          : `a reply's "type" must be a string, one of ${types.join(', ')}; got ${typed(value)}`,
        'Give every reply a "type" of "message", "reaction" or "template".',
      );
    }
    case 'additionalProperties': {
      const property = String(params.additionalProperty);
      const allowed = allowedProperties(parent);
      return error(
        'schema',
        pointer(path, property),
        `unknown property ${excerpt(property)}${allowed.length ? `; allowed here: ${allowed.join(', ')}` : ''}`,
        unknownPropertyHint(property, allowed, path, answer),
      );
    }
    case 'required': {
      const property = String(params.missingProperty);
      return error('schema', path, missingPropertyMessage(property), `Add "${property}".`);
    }
    case 'type':
      return error(
        'schema',
        path,
        `expected ${article(String(params.type))}, got ${typed(data)}`,
        `Send ${fieldOf(path)} as ${article(String(params.type))}.`,
      );
    case 'minLength':
      return params.limit === 1
        ? error('schema', path, 'expected a non-empty string, got ""', emptyStringHint(path))
        : error(
            'schema',
            path,
            `expected at least ${String(params.limit)} characters, got ${excerpt(data)}`,
            `Give ${fieldOf(path)} at least ${String(params.limit)} characters.`,
          );
    case 'maxLength':
      return error(
        'schema',
        path,
        `expected at most ${String(params.limit)} characters, got ${Array.from(String(data)).length}`,
        `Shorten ${fieldOf(path)} to at most ${String(params.limit)} characters.`,
      );
    case 'minItems':
      return error(
        'schema',
        path,
        `expected at least ${String(params.limit)} item(s), got ${(data as unknown[]).length}`,
        `Give ${fieldOf(path)} at least ${String(params.limit)} item(s), or leave it out if it is optional.`,
      );
    case 'maxItems':
      return error(
        'schema',
        path,
        `expected at most ${String(params.limit)} item(s), got ${(data as unknown[]).length}`,
        `Send at most ${String(params.limit)} item(s) in ${fieldOf(path)}.`,
      );
    case 'const':
      return error(
        'schema',
        path,
        `expected ${excerpt(params.allowedValue)}, got ${excerpt(data)}`,
        `Send ${fieldOf(path)} as ${excerpt(params.allowedValue)}.`,
      );
    case 'enum':
      return error(
        'schema',
        path,
        `expected one of ${(params.allowedValues as unknown[]).map((v) => excerpt(v)).join(', ')}, got ${excerpt(data)}`,
        `Send ${fieldOf(path)} as one of the values the contract names (${commandWords('spec response')} prints them).`,
      );
    case 'pattern':
      return error(
        'schema',
        path,
        `expected a string matching ${String(params.pattern)}, got ${excerpt(data)}`,
        `Send ${fieldOf(path)} in the form the pattern describes.`,
      );
    case 'format':
      return params.format === 'emoji'
        ? emojiFinding(path, data)
        : error(
            'schema',
            path,
            `expected a valid ${String(params.format)}, got ${excerpt(data)}`,
            `Send ${fieldOf(path)} as a ${String(params.format)} (${commandWords('spec response')} says which).`,
          );
    default:
      return error(
        'schema',
        path,
        `${err.message ?? 'is invalid'}, got ${excerpt(data)}`,
        `Change ${fieldOf(path)} to match the response schema (${commandWords('spec response')} prints it).`,
      );
  }
}

/** A reaction that is not one emoji; where leaving out U+FE0F makes it one, the hint names that form. */
function emojiFinding(path: string, data: unknown): Finding {
  const listed = typeof data === 'string' ? emojiWithoutVariationSelectors(data) : undefined;
  return error(
    'schema',
    path,
    `expected exactly one emoji (one sequence Unicode lists in emoji-test.txt or emoji-variation-sequences.txt), got ${excerpt(data)}`,
    listed
      ? `Send ${listed}: as written, with its variation selectors (U+FE0F or U+FE0E), it is no sequence Unicode lists.`
      : 'Send a single emoji such as "👍"; skin tones and joined sequences count as one.',
  );
}

/** For a URL that RFC 3986 takes but browsers refuse: why, and what to send. */
function urlHint(value: unknown): string | null {
  const why = typeof value === 'string' ? whyBrowsersRefuse(value) : undefined;
  return why
    ? `Browsers and Node's new URL() refuse this URL: ${why}. Send one that new URL() parses, as the platform opens it in a browser.`
    : null;
}

function describeReceived(value: unknown): string {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const named = keys.slice(0, 10).map((key) => (/^[A-Za-z0-9_]{1,40}$/.test(key) ? key : excerpt(key, 40)));
    return keys.length ? `an object with ${named.join(', ')}${keys.length > 10 ? `, … (${keys.length} keys)` : ''}` : 'an empty object';
  }
  return excerpt(value);
}

/** The message of a required property's absence. */
export function missingPropertyMessage(property: string): string {
  return `missing required property "${property}"`;
}

/** A received value with its JSON type: `an integer 42`, `a string "x"`, or just `null`. */
/** The field a pointer ends at, as a hint names it: `replyTo`, `buttons[1]`, or `the answer`. */
function fieldOf(path: string): string {
  const segments = path.split('/').slice(1);
  const last = segments.at(-1);
  if (last === undefined) return 'the answer';
  if (/^\d+$/.test(last)) return segments.length > 1 ? `${segments.at(-2)}[${last}]` : `item ${last}`;
  return last.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The hint of "" where the contract wants a non-empty string: replyTo's words, else the general ones. */
function emptyStringHint(path: string): string {
  if (path.endsWith('/replyTo'))
    return 'Leave replyTo out when the reply quotes nothing; to quote, give the messageId of one of the person\u2019s messages in this conversation.';
  return `Give ${fieldOf(path)} a value, or leave it out if it is optional: "" is not a value here.`;
}

function typed(value: unknown): string {
  return value === null ? 'null' : `${jsonType(value)} ${excerpt(value)}`;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/**
 * Turns ajv's errors into findings a person can act on: one per real problem, with the received
 * value, the JSON pointer and a hint (a "did you mean" for a misspelt property or reply type).
 */
export function schemaFindings(errors: readonly ErrorObject[], answer: unknown): Finding[] {
  // A reply without a type: the discriminator says so, its `required` error would say it again.
  const missingTypeAt = new Set<string>();
  // A misspelt required property is one problem: the unknown property's "did you mean" names it.
  // (Only the first few unknown properties are looked at: a flood of them is no typo.)
  const misspeltAt = new Set<string>();
  let unknownProperties = 0;
  for (const err of errors) {
    const params = err.params as Record<string, unknown>;
    if (err.keyword === 'discriminator' && params.error === 'tag') missingTypeAt.add(err.instancePath);
    if (err.keyword === 'additionalProperties' && unknownProperties++ < MAX_FINDINGS && isSchema(err.parentSchema)) {
      const property = String(params.additionalProperty);
      const allowed = allowedProperties(err.parentSchema);
      const guess = closestName(property, allowed) ?? repliesRenamed(property, allowed, err.instancePath, answer);
      if (guess) misspeltAt.add(pointer(err.instancePath, guess));
    }
  }
  /** The property a `required` error says is missing. */
  const missing = (err: ErrorObject): string => String((err.params as Record<string, unknown>).missingProperty);

  const findings: Finding[] = [];
  // One finding per anchor and anchored instance: by anchor id, then by the anchored instance's pointer.
  const anchored = new Map<string, Map<string, { anchor: Anchor; path: string }>>();
  const silencedAnchors = new Set<string>();
  let undescribed = 0;
  for (const err of errors) {
    const anchor = anchorOf(err.parentSchema);
    if (err.keyword === 'required' && misspeltAt.has(pointer(err.instancePath, missing(err)))) {
      if (anchor) silencedAnchors.add(parentPointer(err.instancePath, anchor.depth));
      continue;
    }
    if (anchor) {
      const anchorPath = parentPointer(err.instancePath, anchor.depth);
      const byInstance = anchored.get(anchor.id) ?? new Map<string, { anchor: Anchor; path: string }>();
      anchored.set(anchor.id, byInstance);
      const known = byInstance.get(anchorPath);
      // The deepest pointer names the exact place (the empty text rather than the whole message).
      if (!known || err.instancePath.length > known.path.length) byInstance.set(anchorPath, { anchor, path: err.instancePath });
      continue;
    }
    if (err.keyword === 'required' && missing(err) === 'type' && missingTypeAt.has(err.instancePath)) {
      continue; // said once, by the discriminator's finding
    }
    // A flood of errors (300,000 unknown keys in one reply) is capped later: describe no more than that.
    if (findings.length > MAX_FINDINGS) {
      undescribed++;
      continue;
    }
    const finding = describeError(err, answer);
    if (finding) findings.push(finding);
  }
  if (undescribed > 0) {
    findings.push(leftOutNote({ schema: undescribed }, 'error'));
  }
  // Where several anchors point at one place (an empty text breaks two rules), the last, most
  // specific one speaks for it.
  const byPath = new Map<string, Anchor>();
  for (const byInstance of anchored.values()) {
    for (const [anchorPath, { anchor, path }] of byInstance) if (!silencedAnchors.has(anchorPath)) byPath.set(path, anchor);
  }
  for (const [path, anchor] of byPath) {
    const value = valueAt(answer, path);
    findings.push(
      error(
        'schema',
        path,
        `${withoutFullStop(anchor.message)}; got ${describeReceived(value)}`,
        urlHint(value) ??
          `Change ${fieldOf(path)} to follow that rule of the response schema (${commandWords('spec response')} prints it).`,
      ),
    );
  }
  return sortByPointer(findings);
}

/** Orders two pointers as the document reads: segment by segment, numbers as numbers, a parent before its children. */
function comparePointers(left: string, right: string): number {
  let l = 0;
  let r = 0;
  for (;;) {
    const leftEnd = segmentEnd(left, l);
    const rightEnd = segmentEnd(right, r);
    const x = left.slice(l, leftEnd);
    const y = right.slice(r, rightEnd);
    if (x !== y) {
      const nx = Number(x);
      const ny = Number(y);
      if (x !== '' && y !== '' && Number.isInteger(nx) && Number.isInteger(ny)) return nx - ny;
      return x < y ? -1 : 1;
    }
    const leftDone = leftEnd >= left.length;
    const rightDone = rightEnd >= right.length;
    if (leftDone || rightDone) return (leftDone ? 0 : 1) - (rightDone ? 0 : 1);
    l = leftEnd + 1;
    r = rightEnd + 1;
  }
}

/** Where the pointer segment that starts at `start` ends: at the next `/`, or at the end. */
function segmentEnd(path: string, start: number): number {
  const slash = path.indexOf('/', start);
  return slash < 0 ? path.length : slash;
}

/** Findings in document order; findings at the same place keep their order. */
export function sortByPointer<T extends { path: string }>(findings: readonly T[]): T[] {
  return findings.toSorted((a, b) => comparePointers(a.path, b.path));
}
