import type { CountingUnit } from '../platforms/counting.js';
import type { SegmentSize } from '../platforms/sms-segments.js';

/** `yes`: shown; `no`: a reply carrying it is not sent; `ignored`: sent without it. */
export type Support = 'yes' | 'no' | 'ignored';

/** What one platform shows: one entry of the OpenAPI document's `x-platforms`, or a `--limits` file. */
export interface PlatformRules {
  title: string;
  counting: CountingUnit;
  sources?: string;
  text?: { maxLength?: number };
  buttons?: {
    support: Support;
    maxCount?: number;
    labelMaxLength?: number;
    idMaxLength?: number;
    idMaxBytes?: number;
    bodyMaxLength?: number;
  };
  list?: {
    support: Support;
    maxSections?: number;
    maxRows?: number;
    buttonMaxLength?: number;
    sectionTitleMaxLength?: number;
    sectionTitleRequiredWhenSeveral?: boolean;
    rowTitleMaxLength?: number;
    rowDescriptionMaxLength?: number;
    rowIdMaxLength?: number;
    bodyMaxLength?: number;
  };
  link?: { support: Support; labelShown?: boolean; labelMaxLength?: number; bodyMaxLength?: number };
  image?: { support: Support; mimeTypes?: string[]; maxBytes?: number; captionMaxLength?: number };
  reaction?: { support: Support; emoji?: 'any' | string[] };
  template?: { support: Support };
  replyTo?: { support: Support };
  segments?: { gsm7: SegmentSize; ucs2: SegmentSize };
}

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
}

/** The longest wait a timer can hold, in seconds (2^31 - 1 ms): a longer timeout would fire at once. */
export const MAX_WAIT_SECONDS = 2_147_483;

/** The channels the contract names, in its order. */
export function knownChannels(contract: Contract): string[] {
  return Object.keys(contract.platforms);
}
