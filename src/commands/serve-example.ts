import { startReferenceAgent } from '../example-agent/start-reference-agent.js';
import { UsageError } from '../core/usage-error.js';
import type { Output } from './output.js';

export interface ServeExampleCommandArgs {
  port: number;
  host: string;
}

/** `check-endpoint serve-example`: serves the reference agent until interrupted. */
export async function runServeExampleCommand(args: ServeExampleCommandArgs, output: Output): Promise<number> {
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535)
    throw new UsageError(`--port must be a whole number from 0 to 65535; got ${args.port}`);
  let agent;
  try {
    agent = await startReferenceAgent({ port: args.port, host: args.host });
  } catch (cause) {
    throw new UsageError(`cannot listen on ${args.host}:${args.port}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`);
  }
  output.line(`The reference agent is listening at ${agent.url}`);
  output.line(output.colour.dim(`Check it with: check-endpoint ${agent.url} --channel all   (Ctrl-C stops it)`));
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await agent.close();
  return 0;
}
