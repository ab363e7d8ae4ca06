import { type Finding, replyIndex } from '../core/findings.js';
import { now } from '../core/clock.js';
import type { CaseReport, LatencyFigures, ReportedFinding, TurnReport } from '../core/report.js';

/** What a case is made of, before its verdict: its turns, and findings about the case as a whole. */
export interface CaseParts {
  id: string;
  channel: string;
  conversationId: string;
  /** When the case started, on the clock of src/clock.ts. */
  started: number;
  turns: TurnReport[];
  /** Findings about the case as a whole, not one turn (reported with turn null). */
  caseFindings?: readonly Finding[];
  latency?: LatencyFigures;
}

/** The case as reported: every finding of its turns and its own; failed by an error, or by any finding under --strict. */
export function assembleCase(parts: CaseParts, strict: boolean): CaseReport {
  const { id, channel, conversationId, started, turns, caseFindings = [], latency } = parts;
  const findings = [
    ...turns.flatMap((turn) => turn.findings),
    ...caseFindings.map((finding): ReportedFinding => ({ ...finding, turn: null, reply: replyIndex(finding.path) })),
  ];
  const passed = !findings.some((finding) => finding.severity === 'error' || strict);
  return {
    id,
    channel,
    conversationId,
    passed,
    durationMs: Math.round(now() - started),
    turns,
    findings,
    ...(latency ? { latency } : {}),
  };
}
