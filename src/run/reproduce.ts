import type { CaseReport } from '../core/report.js';

/** A value quoted for a POSIX shell: single quotes, each ' written as '\''. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * A curl command that sends exactly this request to the agent. The token is named by its
 * variable ("$FLOW_FRAMEWORK_AGENT_TOKEN"), expanded by the shell of whoever pastes it: its value
 * is never written.
 */
export function curlCommand(url: string, body: string, tokenEnv: string | undefined): string {
  const parts = ['curl -sS -i -X POST', shellQuote(url), "-H 'content-type: application/json'"];
  if (tokenEnv) parts.push(`-H "authorization: Bearer $${tokenEnv}"`);
  parts.push('--data-raw', shellQuote(body));
  return parts.join(' ');
}

/**
 * Puts a reproduce line on every finding of every turn that failed (has an error), and null on
 * the others, so each finding carries one. `tokenEnv` is the token's variable when a token was sent.
 */
export function reproduceCase(caseReport: CaseReport, target: string, tokenEnv: string | undefined): CaseReport {
  const lines = caseReport.turns.map((turn) => {
    if (!turn.findings.some((finding) => finding.severity === 'error')) return null;
    // The body exactly as sent (a quality case may send a damaged one), and the token only where it was sent.
    return curlCommand(target, turn.sentBody ?? JSON.stringify(turn.request), turn.authorization === undefined ? tokenEnv : undefined);
  });
  const reproduceFor = <T extends { turn: number | null }>(finding: T): T & { reproduce: string | null } => ({
    ...finding,
    reproduce: finding.turn === null ? null : (lines[finding.turn] ?? null),
  });
  return {
    ...caseReport,
    turns: caseReport.turns.map((turn) => ({ ...turn, findings: turn.findings.map(reproduceFor) })),
    findings: caseReport.findings.map(reproduceFor),
  };
}
