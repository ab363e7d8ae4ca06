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
  /** The largest request body an agent must accept, in bytes (`x-max-request-bytes`); undefined when the document gives none. */
  maxRequestBytes?: number;
  /** The size of the JPEG quality/large-attachment sends, in bytes (`x-large-attachment-bytes`); undefined when the document gives none. */
  largeAttachmentBytes?: number;
  requestSchema: JsonSchema;
  responseSchema: JsonSchema;
  /** The platforms by channel name (`x-platforms`). */
  platforms: Record<string, PlatformRules>;
}

/** The longest wait a timer can hold, in seconds (2^31 - 1 ms): a longer timeout would fire at once. */
export const MAX_WAIT_SECONDS = 2_147_483;

/** The channels the contract names, in its order. */
export function knownChannels(contract: Contract): string[] {
  return Object.keys(contract.platforms);
}
