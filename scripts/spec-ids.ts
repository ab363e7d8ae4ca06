/**
 * The lists of ids that spec/'s JSON Schemas spell out, each from its one source: the case ids
 * from the case registry (src/cases/registry.ts), the rule ids from the common checks and the
 * cases' declared rules, the channel names from the contract's `x-platforms`. `npm run build`
 * (scripts/build.ts) writes them into the files; test/spec-ids.test.ts holds the files equal to them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LEFT_OUT } from '../src/core/findings.js';
import { bundledContract } from '../src/contract/load-contract.js';
import { knownChannels } from '../src/contract/contract.js';
import { ALL_CASE_IDS, ALL_RULE_IDS } from '../src/cases/registry.js';

/** One list in one file: where it sits (the keys down to the array), and what it must hold. */
export interface SpecIdList {
  file: string;
  at: readonly (string | number)[];
  ids: readonly string[];
}

/** Every list of ids in spec/'s JSON files, with what each must hold. */
export function specIdLists(channels: readonly string[] = knownChannels(bundledContract())): SpecIdList[] {
  const rules = [...ALL_RULE_IDS];
  return [
    { file: 'spec/report.schema.json', at: ['$defs', 'case', 'properties', 'id', 'anyOf', 0, 'enum'], ids: [...ALL_CASE_IDS] },
    { file: 'spec/report.schema.json', at: ['$defs', 'finding', 'properties', 'rule', 'anyOf', 0, 'enum'], ids: [...rules, LEFT_OUT] },
    { file: 'spec/report.schema.json', at: ['$defs', 'finding', 'properties', 'leftOut', 'propertyNames', 'anyOf', 0, 'enum'], ids: rules },
    { file: 'spec/last-run.schema.json', at: ['$defs', 'finding', 'properties', 'rule', 'anyOf', 0, 'enum'], ids: [...rules, LEFT_OUT] },
    { file: 'spec/request.schema.json', at: ['properties', 'channel', 'anyOf', 0, 'enum'], ids: channels },
  ];
}

/** The value at `at` in a parsed JSON document, or undefined. */
export function valueAt(document: unknown, at: readonly (string | number)[]): unknown {
  let value = document;
  for (const key of at) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

/**
 * The file's text with one list replaced, keeping the file's own layout: the old list is found as
 * written (its items in order, nothing else between the brackets) and written again in its style
 * (one item a line at its indentation, or on one line).
 */
function replaceList(text: string, old: readonly string[], ids: readonly string[], file: string): string {
  const items = old.map((id) => JSON.stringify(id).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`\\[(\\s*)${items.join(',\\s*')}(\\s*)\\]`, 'g');
  const found = [...text.matchAll(pattern)];
  if (found.length !== 1) throw new Error(`${file}: the list ${JSON.stringify(old)} is written ${found.length} times, not once`);
  const [match, before, after] = found[0]!;
  const separator = before!.includes('\n') ? `,${before}` : ', ';
  const list = `[${before}${ids.map((id) => JSON.stringify(id)).join(separator)}${after}]`;
  return text.slice(0, found[0]!.index) + list + text.slice(found[0]!.index! + match.length);
}

/** Writes every list into its file; returns the files that changed. */
export function writeSpecIds(root: string, channels?: readonly string[]): string[] {
  const changed = new Set<string>();
  for (const { file, at, ids } of specIdLists(channels)) {
    const path = join(root, file);
    const text = readFileSync(path, 'utf8');
    const old = valueAt(JSON.parse(text), at);
    if (!Array.isArray(old)) throw new Error(`${file}: no list at /${at.join('/')}`);
    if (JSON.stringify(old) === JSON.stringify(ids)) continue;
    writeFileSync(path, replaceList(text, old as string[], ids, file));
    changed.add(file);
  }
  return [...changed];
}
