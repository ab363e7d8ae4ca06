import type { RuleFacts } from '../core/findings.js';
import type { PlatformRules } from '../platforms/platform-rules.js';

export type { PlatformRules, Support } from '../platforms/platform-rules.js';

/** A JSON Schema document, as loaded. */
export type JsonSchema = Record<string, unknown>;

/** The contract as check-endpoint uses it: what it loads from `spec/` (or from `--spec FILE`). */
export interface Contract {
  /** The OpenAPI document's `info.version`. */
  version: string;
  /** Where it was loaded from: a file path, or `bundled` for the contract shipped with the tool. */
  source: string;
  /** Seconds the agent has to answer (`x-agent-timeout-seconds` of the POST operation). */
  agentTimeoutSeconds: number;
  requestSchema: JsonSchema;
  responseSchema: JsonSchema;
  /** The platforms by channel name (`x-platforms`). */
  platforms: Record<string, PlatformRules>;
  /** What each rule requires, by rule id (`x-rules`): its level, the contract's section that states it, and the requirement. */
  rules: Record<string, RuleFacts>;
}

/** The longest wait a timer can hold, in seconds (2^31 - 1 ms): a longer timeout would fire at once. */
export const MAX_WAIT_SECONDS = 2_147_483;

/** The channels the contract names, in its order. */
export function knownChannels(contract: Contract): string[] {
  return Object.keys(contract.platforms);
}
