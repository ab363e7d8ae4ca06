import { CASE_IDS } from '../scenarios/registry.js';
import type { CheckCommandArgs } from '../commands/check.js';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_LATENCY_BUDGET_SECONDS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_QUALITY_CONVERSATIONS,
  DEFAULT_TOKEN_ENV,
} from '../run/defaults.js';

/** One flag, in the shape yargs takes; the fast parser reads the same table. */
export interface OptionSpec {
  type: 'string' | 'number' | 'boolean';
  array?: boolean;
  describe: string;
  default?: string[] | boolean;
  defaultDescription?: string;
  choices?: readonly string[];
}

/** The flags of the check (`check-endpoint <url>` and `demo`): the one place they are defined. */
export const CHECK_OPTIONS: Record<string, OptionSpec> = {
  channel: {
    type: 'string',
    array: true,
    default: [],
    defaultDescription: 'whatsapp',
    describe: 'Channel to check: whatsapp, sms, imessage, telegram, web, all, or a custom name. Repeat for several.',
  },
  case: {
    type: 'string',
    array: true,
    default: [],
    defaultDescription: 'all five',
    choices: CASE_IDS,
    describe: 'Run only this case. Repeat for several.',
  },
  'token-env': {
    type: 'string',
    describe: `Environment variable holding the bearer token (sent as authorization: Bearer …; never printed). Default ${DEFAULT_TOKEN_ENV}`,
  },
  'agent-timeout': {
    type: 'number',
    describe: "Seconds the agent has for each answer, headers and body together. Default: the contract's 60",
  },
  concurrency: { type: 'number', describe: `Conversations in flight at once. Default ${DEFAULT_CONCURRENCY}` },
  'max-body': {
    type: 'number',
    describe: `Largest answer body accepted, in bytes (after decompression). Default ${DEFAULT_MAX_BODY_BYTES}`,
  },
  json: { type: 'boolean', default: false, describe: 'Print the report as one JSON document on stdout (human lines go to stderr)' },
  spec: { type: 'string', describe: 'Check against another version of the contract: an OpenAPI 3.1 file' },
  limits: {
    type: 'string',
    array: true,
    default: [],
    describe: 'Display limits for a custom channel: [NAME=]FILE, a JSON file shaped like spec/platform-limits.schema.json',
  },
  strict: { type: 'boolean', default: false, describe: 'Warnings fail the run too' },
  junit: { type: 'string', describe: 'Also write a JUnit XML report: one testsuite per channel, one testcase per case' },
  har: { type: 'string', describe: 'Also write an HTTP archive (HAR 1.2) of every exchange; the token is written as <redacted>' },
  'report-dir': { type: 'string', describe: 'Write report.json, junit.xml and traffic.har into this folder' },
  baseline: {
    type: 'string',
    describe:
      'Expected failures, one a line (case, case:rule, channel/case, channel/case:rule): they do not fail the run; an entry that passes does',
  },
  'write-baseline': { type: 'string', describe: "Write this run's failures as a baseline file" },
  html: { type: 'string', describe: 'Also write a self-contained HTML page showing every conversation as chat bubbles, per platform' },
  quality: {
    type: 'boolean',
    default: false,
    describe: 'Also run the quality cases: auth, malformed input, forward compatibility, concurrency, retries, long input, latency',
  },
  'quality-conversations': {
    type: 'number',
    describe: `Conversations at once in quality/concurrency. Default ${DEFAULT_QUALITY_CONVERSATIONS}`,
  },
  'latency-budget': {
    type: 'number',
    describe: `Seconds: a p95 latency above it is a warning in quality/latency. Default ${DEFAULT_LATENCY_BUDGET_SECONDS}`,
  },
  insecure: {
    type: 'boolean',
    default: false,
    describe: 'Accept an https certificate the system does not trust (self-signed, for local use only; says so loudly)',
  },
};

/** The check's arguments from parsed flags, keyed as the flags are (`agent-timeout`). */
export function checkArgsFrom(flags: Readonly<Record<string, unknown>>): Omit<CheckCommandArgs, 'url'> {
  const list = (name: string): string[] => (flags[name] as string[] | undefined) ?? [];
  const optional = <T>(name: string, key: string): Record<string, T> => (flags[name] === undefined ? {} : { [key]: flags[name] as T });
  return {
    channel: list('channel'),
    case: list('case'),
    json: flags.json === true,
    limits: list('limits'),
    strict: flags.strict === true,
    insecure: flags.insecure === true,
    quality: flags.quality === true,
    ...optional<number>('quality-conversations', 'qualityConversations'),
    ...optional<number>('latency-budget', 'latencyBudget'),
    ...optional<string>('token-env', 'tokenEnv'),
    ...optional<number>('agent-timeout', 'agentTimeout'),
    ...optional<number>('concurrency', 'concurrency'),
    ...optional<number>('max-body', 'maxBody'),
    ...optional<string>('spec', 'spec'),
    ...optional<string>('html', 'html'),
    ...optional<string>('junit', 'junit'),
    ...optional<string>('har', 'har'),
    ...optional<string>('report-dir', 'reportDir'),
    ...optional<string>('baseline', 'baseline'),
    ...optional<string>('write-baseline', 'writeBaseline'),
  };
}
