/**
 * What a run's reproduce lines carry, worked out once from its plan: the agent's URL, the headers
 * sent besides the checker's own (secrets named by their variables), and the flags a replay of a
 * case needs to be judged and sent as the run was.
 */
import { type CurlHeader, shellQuote } from './reproduce.js';
import { DESCRIBED } from './option-descriptors.js';
import type { ResolvedOptions } from './options.js';
import type { CheckPlan } from './plan.js';

/** What the reproduce lines need: the agent's URL, and the headers sent besides the checker's own (secrets by variable). */
export interface ReproduceTarget {
  url: string;
  headers: readonly CurlHeader[];
  /** The run's flags a replay of a case needs (`--spec`, `--limits`, `--strict`, ...), written for a shell. */
  flags: readonly string[];
}

/** The run's reproduce target at `url`; none for a handler checked in this process, which has no URL. */
export function reproduceTarget(plan: CheckPlan, url: string | undefined): ReproduceTarget | undefined {
  return url === undefined ? undefined : { url, headers: reproduceHeaders(plan), flags: reproduceFlags(plan) };
}

/**
 * The flags a replay of a case needs to be judged and sent as the run was: another contract, the
 * custom channels' limits, the .env file, the timeout, the body limit, --strict and --insecure.
 */
export function reproduceFlags(plan: CheckPlan): string[] {
  return [
    ...(plan.contract.source !== 'bundled' ? ['--spec', shellQuote(plan.contract.source)] : []),
    ...plan.limitFiles.flatMap((file) => ['--limits', shellQuote(file)]),
    ...(plan.dotenvFile !== undefined ? ['--dotenv', shellQuote(plan.dotenvFile)] : []),
    ...(plan.timeoutSeconds !== plan.contract.agentTimeoutSeconds ? ['--agent-timeout', String(plan.timeoutSeconds)] : []),
    ...reproducedOptionFlags(plan.options),
  ];
}

/** The flags of the options marked `reproduce` whose value is not their default, in the table's order. */
function reproducedOptionFlags(options: ResolvedOptions): string[] {
  const values: Readonly<Record<string, unknown>> = options;
  return DESCRIBED.flatMap((descriptor) => {
    const value = values[descriptor.field];
    if (!descriptor.reproduce || !descriptor.flag || value === undefined || value === descriptor.default) return [];
    const flag = `--${descriptor.flag.name}`;
    if (typeof value === 'boolean') return [value ? flag : `--no-${descriptor.flag.name}`];
    if (typeof value === 'number') return [flag, String(value)];
    return typeof value === 'string' ? [flag, shellQuote(value)] : [];
  });
}

/** The headers a reproduce line sends: the token and secret headers by their variables, the others as given. */
export function reproduceHeaders(plan: CheckPlan): CurlHeader[] {
  const token: CurlHeader[] = plan.token ? [{ name: 'authorization', variable: plan.tokenEnv, prefix: 'Bearer ' }] : [];
  return [
    ...token,
    ...plan.headers.map((header): CurlHeader =>
      header.variable ? { name: header.name, variable: header.variable } : { name: header.name, value: header.value },
    ),
  ];
}
