/**
 * What the quality cases share: their conversation and message ids, judging an exchange as any
 * message is judged, the case's own rule in place of `status` and `timeout`, and assembling turn
 * and case reports the way the fixed cases do.
 */
import type { AgentRequest } from '../core/request.js';
import { type Finding, type Rule, error, excerpt, replyIndex } from '../core/findings.js';
import type { HttpOutcome } from '../http/client.js';
import type { CaseReport, ReportedFinding, TurnReport } from '../core/report.js';
import { type CaseParts, assembleCase } from '../run/assemble.js';
import { type TurnVerdict, checkTurn, nestingDepth, parseJsonBody } from '../validate/judge-exchange.js';
import type { QualityCaseId, QualityContext } from './quality-context.js';

/** Answers nested deeper than this are not copied into reports (as check-turn does). */
const MAX_REPORTED_DEPTH = 64;
const BODY_EXCERPT = 120;

/** `quality/retry` → `quality-retry`, as the case appears inside conversation and message ids. */
function slug(id: QualityCaseId): string {
  return id.replace('/', '-');
}

/** A quality case's conversation id: fresh for the run, like the fixed cases' (`whatsapp:chk_5a6abc7b.quality-retry.1`). */
export function qualityConversationId(context: QualityContext, channel: string, id: QualityCaseId, conversation = 1): string {
  return `${channel}:chk_${context.runId}.${slug(id)}.${conversation}`;
}

/** A case over several conversations (or over none of its own) names them with a `*` pattern. */
export function qualityConversationPattern(context: QualityContext, channel: string, id?: QualityCaseId): string {
  return `${channel}:chk_${context.runId}.${id ? `${slug(id)}.` : ''}*`;
}

/** A quality case's message id: `chk_5a6abc7b.whatsapp.quality-retry.p1` (`.c3.p1` in conversation 3 of several). */
export function qualityMessageId(context: QualityContext, channel: string, id: QualityCaseId, turn: number, conversation?: number): string {
  return `chk_${context.runId}.${channel}.${slug(id)}${conversation === undefined ? '' : `.c${conversation}`}.p${turn}`;
}

/** Judges one exchange as any message of the run is judged: timeout, status, json, schema, platform, reference. */
export function judgeTurn(
  context: QualityContext,
  channel: string,
  outcome: HttpOutcome,
  personMessageIds: readonly string[],
  expectsReply: boolean,
): TurnVerdict {
  const { plan } = context;
  return checkTurn(outcome, {
    channel,
    contract: plan.contract,
    ...(Object.hasOwn(plan.limits, channel) ? { limits: plan.limits[channel]! } : {}),
    personMessageIds,
    expectsReply,
    timeoutSeconds: plan.timeoutSeconds,
  });
}

function refusedToken(outcome: HttpOutcome): boolean {
  return outcome.kind === 'answer' && (outcome.status === 401 || outcome.status === 403);
}

/**
 * The case's own rule in place of `status` and `timeout`: the answer this case asks for (200, in
 * time) did not come. `sent` names what was sent, as a noun phrase; the hint is the case's. A 401
 * or 403 keeps rule `status`: the token was refused, which says nothing about this input.
 */
export function withCaseRule(
  context: QualityContext,
  findings: readonly Finding[],
  outcome: HttpOutcome,
  rule: Rule,
  sent: string,
  hint: string,
): Finding[] {
  return findings.map((finding) =>
    (finding.rule === 'status' && !refusedToken(outcome)) || finding.rule === 'timeout'
      ? error(
          rule,
          finding.path,
          `expected ${sent} to be answered with status 200 within ${context.plan.timeoutSeconds} s, like any message; got ${whatCame(outcome)}`,
          hint,
        )
      : finding,
  );
}

/** The answer body for the report, for exchanges not judged by checkTurn: parsed JSON, or null. */
export function reportedAnswer(outcome: HttpOutcome): unknown {
  if (outcome.kind !== 'answer' || outcome.body.length === 0) return null;
  const parsed = parseJsonBody(outcome.body);
  if (!parsed.ok || nestingDepth(parsed.value, MAX_REPORTED_DEPTH) > MAX_REPORTED_DEPTH) return null;
  return parsed.value;
}

/** What came, for messages: `status 500: {"error":…}`, or `no answer (connection refused)`. */
export function whatCame(outcome: HttpOutcome): string {
  if (outcome.kind !== 'answer') return `no answer (${outcome.message})`;
  const location = outcome.headers.location ? ` (location: ${excerpt(outcome.headers.location)})` : '';
  const body = outcome.body.length ? `: ${excerpt(outcome.body.subarray(0, BODY_EXCERPT * 4).toString('utf8'), BODY_EXCERPT)}` : '';
  return `status ${outcome.status}${location}${body}`;
}

export interface TurnFields {
  messageId: string;
  request: AgentRequest;
  outcome: HttpOutcome;
  answer: unknown;
  findings: readonly Finding[];
  sentBody?: string;
  authorization?: TurnReport['authorization'];
}

/** One turn as reported: its findings placed at the turn and at the reply their pointer names. */
export function qualityTurn(index: number, fields: TurnFields): TurnReport {
  const { messageId, request, outcome, answer, findings, sentBody, authorization } = fields;
  return {
    messageId,
    request,
    ...(sentBody !== undefined ? { sentBody } : {}),
    ...(authorization !== undefined ? { authorization } : {}),
    status: outcome.kind === 'answer' ? outcome.status : null,
    latencyMs: outcome.latencyMs,
    answer,
    findings: findings.map((finding): ReportedFinding => ({ ...finding, turn: index, reply: replyIndex(finding.path) })),
  };
}

/** A quality case's parts: as any case's, with a quality case id. */
export interface CaseFields extends CaseParts {
  id: QualityCaseId;
}

/** The case as reported, like every case (see assembleCase). */
export function qualityCase(context: QualityContext, fields: CaseFields): CaseReport {
  return assembleCase(fields, context.plan.strict);
}
