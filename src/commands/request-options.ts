/**
 * The check command's request flags, as the library's options: `--header "Name: value"`,
 * `--header-env Name=VAR`, and which .env file to read (`.env` in the current folder unless
 * `--dotenv FILE` or `--no-dotenv`); and the header line's note on them (never a value).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../core/usage-error.js';
import type { CheckEndpointOptions, CheckPlan } from '../run/plan.js';
import type { VariableSource } from '../run/request-headers.js';

export interface RequestFlags {
  header: string[];
  headerEnv: string[];
  dotenv?: string | false;
}

/** The .env file the command reads by default. */
export const DEFAULT_DOTENV = '.env';

/** `Name: value` pairs into a record; a name given twice is refused. */
function pairs(values: readonly string[], flag: string, separator: string, usage: string): Record<string, string> {
  const record: Record<string, string> = {};
  for (const text of values) {
    const at = text.indexOf(separator);
    // The text is not repeated: a header given by mistake could hold a secret.
    if (at < 0) throw new UsageError(`${flag} needs ${usage}; one given has no "${separator}"`);
    const name = text.slice(0, at).trim();
    if (Object.hasOwn(record, name)) throw new UsageError(`${flag}: ${name} is given twice`);
    record[name] = text.slice(at + 1);
  }
  return record;
}

/** The library's options for the request flags. */
export function requestOptions(
  flags: RequestFlags,
  cwd = process.cwd(),
): Pick<CheckEndpointOptions, 'headers' | 'secretHeaders' | 'dotenv'> {
  const headers = pairs(flags.header, '--header', ':', '"Name: value"');
  const secretHeaders = Object.fromEntries(
    Object.entries(pairs(flags.headerEnv, '--header-env', '=', 'NAME=VAR')).map(([name, variable]) => [name, variable.trim()]),
  );
  const dotenv =
    flags.dotenv === false ? undefined : (flags.dotenv ?? (existsSync(join(cwd, DEFAULT_DOTENV)) ? DEFAULT_DOTENV : undefined));
  return {
    ...(flags.header.length ? { headers } : {}),
    ...(flags.headerEnv.length ? { secretHeaders } : {}),
    ...(dotenv !== undefined ? { dotenv } : {}),
  };
}

function fromWhere(source: VariableSource | undefined): string {
  return source?.from === 'dotenv' ? ` from ${source.file}` : ' from the environment';
}

/** The header line's note: where the token comes from, the proxy, the extra headers; never a secret's value. */
export function requestNote(plan: CheckPlan): string {
  const authorization = plan.headers.find((header) => header.name === 'authorization' && header.variable !== undefined);
  const notSet = plan.dotenvFile === undefined ? 'is not set' : `is not set, nor in ${plan.dotenvFile}`;
  const token = authorization
    ? `token: not sent (authorization from ${authorization.variable}${fromWhere(authorization.source)})`
    : plan.token
      ? `token: ${plan.tokenEnv}${fromWhere(plan.tokenSource)}`
      : `token: none (${plan.tokenEnv} ${notSet})`;
  const parts = [token];
  if (plan.proxy) parts.push(`proxy: ${plan.proxy.shown} (${plan.proxy.variable})`);
  const others = plan.headers.filter((header) => header !== authorization);
  if (others.length) {
    const shown = others.map((header) =>
      header.variable ? `${header.shownName} from ${header.variable}${fromWhere(header.source)}` : `${header.shownName}: ${header.value}`,
    );
    parts.push(`headers: ${shown.join(', ')}`);
  }
  return parts.join(' · ');
}
