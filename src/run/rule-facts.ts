/**
 * What each rule of a run requires, for the reports: its level, the contract's section that states
 * it, and the requirement in one line. The contract's `x-rules` states the common checks' rules and
 * the built-in cases'; a case of your own states its own.
 */
import { RULES, type RuleFacts } from '../core/findings.js';
import { OptionError } from '../core/option-error.js';
import type { RuleReport } from '../core/report.js';
import type { Contract } from '../contract/contract.js';
import { bundledContract } from '../contract/load-contract.js';
import type { Case } from '../cases/case.js';

/** The facts of a rule the contract states: the run's contract's, or, for one it leaves out (an older --spec), the bundled one's. */
function stated(id: string, contract: Contract): RuleFacts | undefined {
  return contract.rules[id] ?? bundledContract().rules[id];
}

/**
 * The rules of a run's cases, by id: the common checks', then each case's own, in the cases'
 * order. A case's rule the contract does not state must say its own level and statement.
 */
export function ruleFactsOf(contract: Contract, cases: readonly Case[]): Record<string, RuleReport> {
  const facts: Record<string, RuleReport> = {};
  for (const id of RULES) {
    const known = stated(id, contract);
    if (known) facts[id] = known;
  }
  for (const testCase of cases) {
    for (const rule of testCase.rules ?? []) {
      const { id, level, statement, section } = rule;
      const known = level !== undefined && statement !== undefined ? { level, statement, section: section ?? null } : stated(id, contract);
      if (known === undefined) {
        throw new OptionError(
          'customCases',
          (on) =>
            `${on.name('customCases')}: the case ${testCase.id} declares the rule "${id}" without its level and statement: give { id, level: 'must' or 'should', statement }`,
        );
      }
      facts[id] = { level: known.level, section: known.section, statement: known.statement };
    }
  }
  return facts;
}
