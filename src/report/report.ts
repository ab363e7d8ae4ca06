import type { Finding } from '../findings.js';
import type { AgentRequest } from '../cases/person-message.js';

/** The version of the report format (`spec/report.schema.json`); it changes only when the shape does. */
export const REPORT_FORMAT_VERSION = 1;

/** A finding as reported: where in the run it happened, besides where in the answer. */
export interface ReportedFinding extends Finding {
  /** The turn's index in its case (0-based), or null for a finding about the whole run. */
  turn: number | null;
  /** The reply's index in the answer's `replies`, or null when the finding is not about one reply. */
  reply: number | null;
}

export interface TurnReport {
  messageId: string;
  /** The request body exactly as sent (headers, and so the token, are never reported). */
  request: AgentRequest;
  /** The HTTP status, or null when no answer came. */
  status: number | null;
  latencyMs: number;
  /** The parsed answer body, or null when there was none or it was not JSON. */
  answer: unknown;
  findings: ReportedFinding[];
}

export interface CaseReport {
  id: string;
  channel: string;
  conversationId: string;
  /** No finding of severity error (and none at all under --strict). */
  passed: boolean;
  durationMs: number;
  turns: TurnReport[];
  /** Every finding of the case's turns. */
  findings: ReportedFinding[];
}

export interface ChannelReport {
  name: string;
  /** The platform's name, or null for a custom channel. */
  title: string | null;
  /** Where its display limits come from: the contract, a --limits file, or none known (schema only). */
  limits: 'spec' | 'file' | 'none';
}

export interface Report {
  version: typeof REPORT_FORMAT_VERSION;
  tool: { name: 'check-endpoint'; version: string };
  spec: { version: string; source: string };
  target: string;
  channels: ChannelReport[];
  /** passed: every case passed; failed: a case failed; error: the check could not run. */
  outcome: 'passed' | 'failed' | 'error';
  exitCode: 0 | 1 | 2;
  /** Why the check could not run, when outcome is error. */
  error: { message: string } | null;
  counts: { cases: number; passed: number; failed: number; errors: number; warnings: number };
  cases: CaseReport[];
}

/** The reply index a finding's pointer names (`/replies/2/...` is 2), or null. */
export function replyIndex(path: string): number | null {
  const match = /^\/replies\/(\d+)(?:\/|$)/.exec(path);
  return match ? Number(match[1]) : null;
}
