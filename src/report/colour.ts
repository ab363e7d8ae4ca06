import type { ChalkInstance } from 'chalk';

/** The styles human output uses. */
export interface Colours {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const unchanged = (text: string): string => text;

/** No colour: every style leaves the text as it is. */
export const NO_COLOURS: Colours = {
  red: unchanged,
  green: unchanged,
  yellow: unchanged,
  cyan: unchanged,
  dim: unchanged,
  bold: unchanged,
};

/** Styles from a chalk instance. */
export function fromChalk(chalk: ChalkInstance): Colours {
  return {
    red: (text) => chalk.red(text),
    green: (text) => chalk.green(text),
    yellow: (text) => chalk.yellow(text),
    cyan: (text) => chalk.cyan(text),
    dim: (text) => chalk.dim(text),
    bold: (text) => chalk.bold(text),
  };
}

/**
 * Whether a stream gets colour. The --color or --no-color flag wins when given; then FORCE_COLOR
 * (chalk reads its level from it); then a non-empty NO_COLOR turns colour off
 * (https://no-color.org); otherwise colour where the stream is a terminal.
 */
export function wantsColour(
  stream: NodeJS.WriteStream,
  env: Readonly<Record<string, string | undefined>> = process.env,
  flag?: boolean,
): boolean {
  if (flag !== undefined) return flag;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.NO_COLOR) return false;
  return stream.isTTY === true;
}

/** The colours for one stream: chalk, loaded only when colour is on (a CI log pays nothing for it). */
export async function coloursFor(
  stream: NodeJS.WriteStream,
  env: Readonly<Record<string, string | undefined>> = process.env,
  flag?: boolean,
): Promise<Colours> {
  if (!wantsColour(stream, env, flag)) return NO_COLOURS;
  const { Chalk } = await import('chalk');
  const levelFromEnv = flag === undefined && env.FORCE_COLOR !== undefined;
  return fromChalk(levelFromEnv ? new Chalk() : new Chalk({ level: Math.max(1, new Chalk().level) as 1 | 2 | 3 }));
}
