/**
 * check-endpoint as a library: validate answers offline, load the contract, run the live check
 * against an agent's URL or a handler in this process (checkEndpoint), with cases of your own
 * (defineCase), or assert it in a test (assertEndpoint); talk to it on a local page (chatServer). The report writers are also at
 * check-endpoint/report.
 */
export type { Answer, Button, ListRow, ListSection, MessageReply, ReactionReply, Reply, TemplateReply } from './core/answer.js';
export type { Finding, FindingLimit, LeftOutCounts, LimitCount, Rule, RuleFacts, RuleId, RuleLevel, Severity } from './core/findings.js';
export { LEFT_OUT, MAX_FINDINGS, RULES } from './core/findings.js';
export type { Contract, JsonSchema, PlatformRules, Support } from './contract/contract.js';
export { knownChannels } from './contract/contract.js';
export { ContractError } from './contract/contract-error.js';
export { bundledContract, loadContract, loadLimitsFile } from './contract/load-contract.js';
export type { ValidateAnswerOptions } from './validate/validate-answer.js';
export { platformRulesFor, validateAnswer } from './validate/validate-answer.js';
export { isSingleEmoji } from './platforms/emoji.js';
export { smsSegments } from './platforms/sms-segments.js';
export type { SmsEncoding, SmsSegmentation } from './platforms/sms-segments.js';
export { lengthIn } from './platforms/counting.js';
export type { CountingUnit } from './platforms/counting.js';
export type {
  CheckEndpointOptions,
  CheckTarget,
  FetchHandler,
  FetchHandlerTarget,
  NodeListener,
  NodeListenerTarget,
  RouteHandler,
  RouteModule,
  RouteModuleTarget,
} from './run/check-endpoint.js';
export { checkEndpoint, DEFAULT_TOKEN_ENV } from './run/check-endpoint.js';
export { type AssertedReport, assertEndpoint } from './assert-endpoint.js';
export type { AgentControl, ChatServer, ChatServerOptions } from './chat/chat-server.js';
export { chatServer } from './chat/chat-server.js';
export type { FormatReportOptions } from './report/format-report.js';
export { formatReport } from './report/format-report.js';
export type {
  CaseReport,
  ChannelReport,
  ExploredFailure,
  ExploreReport,
  ExploreStep,
  KeptReplay,
  LatencyFigures,
  Report,
  ReportedFinding,
  RuleReport,
  TransportReport,
  TurnReport,
} from './core/report.js';
export { ALL_CASE_IDS, CASE_IDS, EXTENDED_CASE_IDS, QUALITY_CASE_IDS, CASES } from './cases/registry.js';
export type { AnyCaseId, CaseId, ExploreCaseId, ExtendedCaseId, QualityCaseId } from './cases/registry.js';
export type { CaseProgress } from './run/options.js';
export type { Expectation, Case, CaseContext, CaseRule, CaseSetting, JsonValue, SentMessage, SentTurn } from './cases/case.js';
export { defineCase } from './cases/define-case.js';
export type { CaseDefinition } from './cases/define-case.js';
// The earlier names of a case, kept so existing users do not break ("scenario" now means the team's own scenario files).
export type {
  /** @deprecated Use Case. */
  Case as Scenario,
  /** @deprecated Use CaseContext. */
  CaseContext as ScenarioContext,
  /** @deprecated Use CaseRule. */
  CaseRule as ScenarioRule,
  /** @deprecated Use CaseSetting. */
  CaseSetting as ScenarioSetting,
} from './cases/case.js';
export type {
  /** @deprecated Use CaseDefinition. */
  CaseDefinition as ScenarioDefinition,
} from './cases/define-case.js';
export {
  /** @deprecated Use defineCase. */
  defineCase as defineScenario,
} from './cases/define-case.js';
export {
  /** @deprecated Use CASES. */
  CASES as SCENARIOS,
} from './cases/registry.js';
export type { AgentRequest, PersonMessage } from './core/request.js';
export { UsageError } from './core/usage-error.js';
export { OptionError } from './core/option-error.js';
