import { type Finding, type RuleId, error } from '../../core/findings.js';
import type { HttpOutcome } from '../../http/client.js';
import { whatCame } from '../../validate/outcome-summary.js';
import type { JudgedExchange } from '../case.js';

function refusedToken(outcome: HttpOutcome): boolean {
  return outcome.kind === 'answer' && (outcome.status === 401 || outcome.status === 403);
}

/**
 * An answer broken in itself, whatever was sent: headers past 16 KiB (10,000 of them), not HTTP, a
 * body past the limit or that cannot be decoded. Every message gets it, so it says nothing of this
 * input: the finding stays as judged, with its own hint, not the case's.
 */
function brokenAnswer(outcome: HttpOutcome): boolean {
  if (outcome.kind === 'too-large' || outcome.kind === 'undecodable') return true;
  return outcome.kind === 'network' && outcome.code !== undefined && outcome.code.startsWith('HPE_');
}

/**
 * The case's own rule in place of `status` and `timeout`: the answer this case asks for (200, in
 * time) did not come. `sent` names what was sent, as a noun phrase; the hint is the case's. A 401
 * or 403 keeps rule `status`: the token was refused, which says nothing about this input; so does
 * an answer broken in itself (brokenAnswer).
 */
export function withCaseRule(judged: JudgedExchange, timeoutSeconds: number, rule: RuleId, sent: string, hint: string): Finding[] {
  const { findings, outcome } = judged;
  return findings.map((finding) =>
    ((finding.rule === 'status' && !refusedToken(outcome)) || finding.rule === 'timeout') && !brokenAnswer(outcome)
      ? error(
          rule,
          finding.path,
          `expected ${sent} to be answered with status 200 within ${timeoutSeconds} s, like any message; got ${whatCame(outcome)}`,
          hint,
        )
      : finding,
  );
}
