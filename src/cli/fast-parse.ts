import { parseArgs } from 'node:util';
import type { CheckCommandArgs } from '../commands/check.js';
import { CHECK_OPTIONS, checkArgsFrom } from './check-options.js';

/** Words that name a command rather than a URL. */
export const COMMAND_NAMES = ['validate', 'serve-example', 'demo', 'help'];

/**
 * The common command line, `check-endpoint <url> [flags]`, parsed without loading yargs (which
 * costs about 50 ms of a smoke check's start). Anything it is not sure of (help, a subcommand, an
 * unknown or malformed flag, a value out of its choices) gives undefined, and yargs, which owns
 * the help and every error message, parses the line instead. A test holds both to one result.
 */
export function parseCheckFast(argv: readonly string[]): CheckCommandArgs | undefined {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: Object.fromEntries(
        Object.entries(CHECK_OPTIONS).map(
          ([name, spec]) => [name, { type: spec.type === 'boolean' ? 'boolean' : 'string', multiple: spec.array === true }] as const,
        ),
      ),
    });
  } catch {
    return undefined;
  }
  const [url, ...extra] = parsed.positionals;
  if (url === undefined || extra.length > 0 || COMMAND_NAMES.includes(url) || url.startsWith('-')) return undefined;
  const flags: Record<string, unknown> = { ...parsed.values };
  for (const [name, spec] of Object.entries(CHECK_OPTIONS)) {
    const value = flags[name];
    if (value === undefined) continue;
    if (spec.choices && (value as string[]).some((choice) => !spec.choices!.includes(choice))) return undefined;
    if (spec.type === 'number') {
      if ((value as string).trim() === '') return undefined;
      flags[name] = Number(value);
    }
  }
  return { url, ...checkArgsFrom(flags) };
}
