/**
 * Names that say their value is a secret (`OPENAI_API_KEY`, `ANTHROPIC_KEY`, `DB_PASS`, `GH_PAT`,
 * `SENTRY_DSN`, `dbPassword`, `x-auth-token`): a key a config file must not hold, a variable a
 * --start command sets in its own words.
 */
export const SECRET_NAME = /token|secret|password|passwd|api[-_]?key|authorization|bearer|credential|(?:^|[-_])(?:key|pass|pat|dsn)$/i;

/** Shorter values are taken for placeholders (`TOKEN=test`): redacting them would blank ordinary words of the agent's output. */
const SHORTEST_SECRET = 8;

/** `NAME=value` where a shell word starts: the value bare, 'single quoted' or "double quoted". */
const ASSIGNMENT = /(?:^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*)=(?:'([^']*)'|"([^"]*)"|([^\s'";&|()]*))/g;

/**
 * The values a shell command sets secret-named variables to, written into the command itself
 * (`OPENAI_API_KEY=sk-… uvicorn app:app`, `export API_TOKEN="…" && …`): secrets of the run, redacted
 * wherever the command or its agent's output is shown.
 */
export function secretsAssignedIn(command: string): string[] {
  const values: string[] = [];
  for (const [, name, single, double, bare] of command.matchAll(ASSIGNMENT)) {
    const value = single ?? double ?? bare ?? '';
    if (SECRET_NAME.test(name!) && value.length >= SHORTEST_SECRET) values.push(value);
  }
  return values;
}
