/**
 * check-endpoint as a library: validate answers offline, load the contract, and (see
 * checkEndpoint) run the live check against an agent's URL.
 */
export type { Answer, Button, ListRow, ListSection, MessageReply, ReactionReply, Reply, TemplateReply } from './answer.js';
export type { Finding, Rule, Severity } from './findings.js';
export { MAX_FINDINGS, RULES } from './findings.js';
export type { Contract, JsonSchema, PlatformRules, Support } from './spec/contract.js';
export { knownChannels } from './spec/contract.js';
export { ContractError } from './spec/contract-error.js';
export { bundledContract, loadContract, loadLimitsFile } from './spec/load-contract.js';
export type { ValidateAnswerOptions } from './validate/validate-answer.js';
export { platformRulesFor, validateAnswer } from './validate/validate-answer.js';
export { isSingleEmoji } from './platforms/emoji.js';
export { smsSegments } from './platforms/sms-segments.js';
export type { SmsEncoding, SmsSegmentation } from './platforms/sms-segments.js';
export { lengthIn } from './platforms/counting.js';
export type { CountingUnit } from './platforms/counting.js';
export type { CheckEndpointOptions } from './run/check-endpoint.js';
export { checkEndpoint, DEFAULT_TOKEN_ENV } from './run/check-endpoint.js';
export type { CaseReport, ChannelReport, LatencyFigures, Report, ReportedFinding, TurnReport } from './report/report.js';
export { CASE_IDS } from './cases/fixed-cases.js';
export type { CaseId } from './cases/fixed-cases.js';
export { QUALITY_CASE_IDS } from './quality/quality-context.js';
export type { QualityCaseId } from './quality/quality-context.js';
export type { AgentRequest, PersonMessage } from './cases/person-message.js';
export { UsageError } from './usage-error.js';
