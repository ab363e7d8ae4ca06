import { commandName } from '../core/command-name.js';
import { startReferenceAgent } from '../example-agent/start-reference-agent.js';
import { UsageError } from '../core/usage-error.js';
import { DEFAULT_TOKEN_ENV } from '../run/defaults.js';
import { NOT_A_VARIABLE_NAME, VARIABLE_NAME } from '../run/request-headers.js';
import type { Output } from './output.js';

export interface ServeExampleCommandArgs {
  port: number;
  host: string;
  tokenEnv?: string;
}

/** The token the agent requires, from its variable: none when the default variable is unset; a UsageError when a named one is. */
function requiredToken(args: ServeExampleCommandArgs, env: NodeJS.ProcessEnv): string | undefined {
  const name = args.tokenEnv ?? DEFAULT_TOKEN_ENV;
  if (name === '') throw new UsageError('--token-env needs the name of an environment variable');
  if (!VARIABLE_NAME.test(name)) throw new UsageError(`--token-env: the value given ${NOT_A_VARIABLE_NAME}`);
  const token = env[name];
  if (args.tokenEnv !== undefined && !token) {
    throw new UsageError(`--token-env names ${name}, but that environment variable is ${token === undefined ? 'not set' : 'empty'}`);
  }
  return token || undefined;
}

/** `check-endpoint serve-example`: serves the reference agent until interrupted. */
export async function runServeExampleCommand(args: ServeExampleCommandArgs, output: Output): Promise<number> {
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535)
    throw new UsageError(`--port must be a whole number from 0 to 65535; got ${args.port}`);
  const token = requiredToken(args, process.env);
  let agent;
  try {
    agent = await startReferenceAgent({ port: args.port, host: args.host, ...(token !== undefined ? { token } : {}) });
  } catch (cause) {
    throw new UsageError(`cannot listen on ${args.host}:${args.port}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`);
  }
  const tokenEnv = args.tokenEnv ?? DEFAULT_TOKEN_ENV;
  output.line(`The reference agent is listening at ${agent.url}`);
  output.line(
    output.colour.dim(
      token !== undefined
        ? `It answers 401 without "authorization: Bearer <the token in ${tokenEnv}>". Check it with: ${commandName()} ${agent.url} --channel all --quality${args.tokenEnv !== undefined ? ` --token-env ${tokenEnv}` : ''}   (Ctrl-C stops it)`
        : `It requires no token (${tokenEnv} is not set). Check it with: ${commandName()} ${agent.url} --channel all   (Ctrl-C stops it)`,
    ),
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await agent.close();
  return 0;
}
