import { Chalk, type ChalkInstance } from 'chalk';

/**
 * The colours of human output, for one stream. FORCE_COLOR wins (chalk reads it); otherwise a
 * non-empty NO_COLOR turns colour off (https://no-color.org), and otherwise chalk asks the terminal.
 */
export function colourFor(stream: NodeJS.WriteStream, env: Readonly<Record<string, string | undefined>> = process.env): ChalkInstance {
  if (env.FORCE_COLOR === undefined && env.NO_COLOR) return new Chalk({ level: 0 });
  if (env.FORCE_COLOR !== undefined) return new Chalk();
  return new Chalk({ level: stream.isTTY ? (Math.max(1, new Chalk().level) as 1 | 2 | 3) : 0 });
}
