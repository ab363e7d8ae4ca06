import { type Finding, type RuleId, error } from '../../core/findings.js';
import type { HttpOutcome } from '../../http/client.js';
import { whatCame } from '../../validate/outcome-summary.js';
import type { JudgedExchange } from '../case.js';

function refusedToken(outcome: HttpOutcome): boolean {
  return outcome.kind === 'answer' && (outcome.status === 401 || outcome.status === 403);
}

/**
 * The case's own rule in place of `status` and `timeout`: the answer this case asks for (200, in
 * time) did not come. `sent` names what was sent, as a noun phrase; the hint is the case's. A 401
 * or 403 keeps rule `status`: the token was refused, which says nothing about this input.
 */
export function withCaseRule(judged: JudgedExchange, timeoutSeconds: number, rule: RuleId, sent: string, hint: string): Finding[] {
  const { findings, outcome } = judged;
  return findings.map((finding) =>
    (finding.rule === 'status' && !refusedToken(outcome)) || finding.rule === 'timeout'
      ? error(
          rule,
          finding.path,
          `expected ${sent} to be answered with status 200 within ${timeoutSeconds} s, like any message; got ${whatCame(outcome)}`,
          hint,
        )
      : finding,
  );
}
