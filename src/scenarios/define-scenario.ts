/**
 * A case of your own: `defineScenario({ id, description, run })`, passed to checkEndpoint in
 * `scenarios`. Its `run(context)` sends with `context.send({ text, attachments?, choice?, replyTo? })`
 * (each turn judged by the common checks, as the built-in cases' are) and adds its own expectations
 * with `context.expect(holds, { rule, message })` under the rules it declares.
 */
import { RULE_ID } from '../core/findings.js';
import { CASE_ID } from '../core/ids.js';
import type { Scenario, ScenarioRule, ScenarioScope, ScenarioSetting } from './scenario.js';

export interface ScenarioDefinition<Id extends string = string> {
  /** Its id in every report: lower case letters, digits, _ and -, with one / at most (`acme/greeting`). */
  id: Id;
  /** The requirement it checks, in words. */
  description: string;
  run: Scenario['run'];
  /** `channel` (the default): played on every channel of the run; `run`: once, on the first channel. */
  scope?: ScenarioScope;
  /** Its own rules: `{ id, level: 'must' | 'should', statement, section? }`. */
  rules?: readonly ScenarioRule[];
  /** Its own settings, by option field: each can be given as an option of checkEndpoint. */
  settings?: Readonly<Record<string, ScenarioSetting>>;
}

/** A case of your own, vetted: a TypeError names what is wrong with the definition. */
export function defineScenario<Id extends string>(definition: ScenarioDefinition<Id>): Scenario<Id> {
  const { id, description, run, rules = [] } = definition;
  if (typeof id !== 'string' || !CASE_ID.test(id)) {
    throw new TypeError(`defineScenario: id "${String(id)}" is not a case id: lower case letters, digits, _ and -, with one / at most`);
  }
  if (typeof description !== 'string' || description === '') throw new TypeError(`defineScenario ${id}: give a description`);
  if (typeof run !== 'function') throw new TypeError(`defineScenario ${id}: run must be a function (context) => Promise`);
  for (const rule of rules) {
    if (!RULE_ID.test(rule.id))
      throw new TypeError(`defineScenario ${id}: rule id "${rule.id}" is not a rule id (lower case letters, digits and -)`);
    if (rule.level !== 'must' && rule.level !== 'should') {
      throw new TypeError(`defineScenario ${id}: rule ${rule.id} needs a level, 'must' or 'should'`);
    }
    if (typeof rule.statement !== 'string' || rule.statement === '') {
      throw new TypeError(`defineScenario ${id}: rule ${rule.id} needs a statement: the requirement in one line`);
    }
  }
  return { ...definition, scope: definition.scope ?? 'channel', group: 'custom' };
}
