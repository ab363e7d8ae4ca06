/**
 * A case of your own: `defineCase({ id, description, run })`, passed to checkEndpoint in
 * `customCases`. Its `run(context)` sends with `context.send({ text, attachments?, choice?, replyTo? })`
 * (each turn judged by the common checks, as the built-in cases' are) and adds its own expectations
 * with `context.expect(holds, { rule, message })` under the rules it declares.
 */
import { RULE_ID } from '../core/findings.js';
import { CASE_ID } from '../core/ids.js';
import type { Case, CaseRule, CaseScope, CaseSetting } from './case.js';

export interface CaseDefinition<Id extends string = string> {
  /** Its id in every report: lower case letters, digits, _ and -, with one / at most (`acme/greeting`). */
  id: Id;
  /** The requirement it checks, in words. */
  description: string;
  run: Case['run'];
  /** `channel` (the default): played on every channel of the run; `run`: once, on the first channel. */
  scope?: CaseScope;
  /** Its own rules: `{ id, level: 'must' | 'should', statement, section? }`. */
  rules?: readonly CaseRule[];
  /** Its own settings, by option field: each can be given as an option of checkEndpoint. */
  settings?: Readonly<Record<string, CaseSetting>>;
}

/** A case of your own, vetted: a TypeError names what is wrong with the definition. */
export function defineCase<Id extends string>(definition: CaseDefinition<Id>): Case<Id> {
  const { id, description, run, rules = [] } = definition;
  if (typeof id !== 'string' || !CASE_ID.test(id)) {
    throw new TypeError(`defineCase: id "${String(id)}" is not a case id: lower case letters, digits, _ and -, with one / at most`);
  }
  if (typeof description !== 'string' || description === '') throw new TypeError(`defineCase ${id}: give a description`);
  if (typeof run !== 'function') throw new TypeError(`defineCase ${id}: run must be a function (context) => Promise`);
  for (const rule of rules) {
    if (!RULE_ID.test(rule.id))
      throw new TypeError(`defineCase ${id}: rule id "${rule.id}" is not a rule id (lower case letters, digits and -)`);
    if (rule.level !== 'must' && rule.level !== 'should') {
      throw new TypeError(`defineCase ${id}: rule ${rule.id} needs a level, 'must' or 'should'`);
    }
    if (typeof rule.statement !== 'string' || rule.statement === '') {
      throw new TypeError(`defineCase ${id}: rule ${rule.id} needs a statement: the requirement in one line`);
    }
  }
  return { ...definition, scope: definition.scope ?? 'channel', group: 'custom' };
}
