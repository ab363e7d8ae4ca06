/**
 * `null` for a property the answer could leave out: `"buttons": null`, as pydantic models and
 * JavaScript objects write an unset optional field. The contract wants it left out. The schema
 * judges the answer without its null properties, so the nulls give one finding per reply, saying
 * to leave them out, and no other finding invented from them (a `null` list beside a `null` image
 * is no list with an image). This works on the data alone, whatever validator judges it (the
 * bundled contract's, compiled at build time, or another --spec's).
 */
import { type Finding, error, pointer, replyIndex } from '../core/findings.js';
import type { AnsweringStack } from './answering-stack.js';
import { fixSentence } from './stack-fixes.js';

/** One null property: the pointer of the object that holds it, and its name. */
export interface NullProperty {
  parent: string;
  name: string;
}

/** Objects nested deeper than this are kept as they are (no schema of the contract nests so deep). */
const DEEPEST = 64;
/** Null properties named in one finding at the most. */
const NAMED_AT_MOST = 8;

/**
 * The value without its null properties (copied, the value itself untouched), and where they
 * were; undefined when it has none. Iterative: a hostile answer may nest 100,000 levels.
 */
export function withoutNullProperties(value: unknown): { value: unknown; nulls: NullProperty[] } | undefined {
  if (!hasNullProperty(value)) return undefined;
  const nulls: NullProperty[] = [];
  const copy = (node: unknown): unknown =>
    Array.isArray(node) ? [...node] : typeof node === 'object' && node !== null ? { ...node } : node;
  const root = copy(value);
  const stack: { node: unknown; path: string; depth: number }[] = [{ node: root, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { node, path, depth } = stack.pop()!;
    if (typeof node !== 'object' || node === null || depth >= DEEPEST) continue;
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) {
        node[index] = copy(node[index]);
        stack.push({ node: node[index], path: pointer(path, index), depth: depth + 1 });
      }
      continue;
    }
    const object = node as Record<string, unknown>;
    for (const name of Object.keys(object)) {
      if (object[name] === null) {
        delete object[name];
        nulls.push({ parent: path, name });
      } else {
        object[name] = copy(object[name]);
        stack.push({ node: object[name], path: pointer(path, name), depth: depth + 1 });
      }
    }
  }
  return { value: root, nulls };
}

/** Whether any object in the value has a null property: most answers have none, and are not copied. */
function hasNullProperty(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null || depth >= DEEPEST) continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push([item, depth + 1]);
      continue;
    }
    for (const child of Object.values(node)) {
      if (child === null) return true;
      stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** A null property's name as the reply (or answer) holding it reads: `buttons`, `list.sections[0].title`. */
function nameWithin(base: string, property: NullProperty): string {
  const inner = property.parent.slice(base.length).split('/').slice(1);
  const parts = inner.map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  return [...parts, property.name].map((part, index) => (/^\d+$/.test(part) ? `[${part}]` : index === 0 ? part : `.${part}`)).join('');
}

/** Where a null property's finding goes: the reply that holds it, or the object that does outside the replies. */
function findingPlace(property: NullProperty): string {
  const index = replyIndex(property.parent);
  return index === null ? property.parent : `/replies/${index}`;
}

/** The hint on null properties: the rule, then the fix in the words of the stack that answered (or the usual fixes). */
function nullHint(stack: AnsweringStack | undefined): string {
  return `Leave out a property that has no value, never send it as null. ${fixSentence('null-property', stack)}`;
}

/** The hint on a required property sent as null: `"replies": null` is no replies, written as a nil slice or None. */
export function requiredNullHint(property: NullProperty, stack: AnsweringStack | undefined): string {
  if (property.parent === '' && property.name === 'replies') {
    return `Answer { "replies": [] } when there is nothing to send, never null. ${fixSentence('null-replies', stack)}`;
  }
  return `Give "${property.name}" a value.`;
}

/** One finding per reply (or object outside the replies) with null properties, naming them. */
export function nullPropertyFindings(nulls: readonly NullProperty[], stack?: AnsweringStack): Finding[] {
  const byPlace = new Map<string, string[]>();
  for (const property of nulls) {
    const place = findingPlace(property);
    const names = byPlace.get(place) ?? [];
    names.push(nameWithin(place, property));
    byPlace.set(place, names);
  }
  return [...byPlace].map(([place, names]) => {
    const named = names.slice(0, NAMED_AT_MOST);
    const list =
      names.length > NAMED_AT_MOST
        ? `${named.join(', ')} and ${names.length - NAMED_AT_MOST} more`
        : named.length > 1
          ? `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`
          : named[0]!;
    const verb = names.length > 1 ? 'are' : 'is';
    return error('schema', place, `${list} ${verb} null; a property with no value is left out, never null`, nullHint(stack));
  });
}
