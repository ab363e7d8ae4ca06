import { type Colours, coloursFor } from '../report/colour.js';

/** Where a command writes: people's lines, and (with --json) the one JSON document on stdout. */
export interface Output {
  /** Human lines: stdout, or stderr when stdout carries JSON. */
  line(text?: string): void;
  /** The colours for human lines. */
  colour: Colours;
  /** Why the command could not do its job: always on stderr. */
  error(text: string): void;
  /** The JSON document, on stdout. */
  json(document: unknown): void;
}

/** `--color` / `--no-color`: given, it wins over NO_COLOR and FORCE_COLOR; left out, they decide. */
export interface ColourFlag {
  color?: boolean;
}

export async function createOutput(json: boolean, colourFlag?: boolean): Promise<Output> {
  const humanStream = json ? process.stderr : process.stdout;
  const colour = await coloursFor(humanStream, process.env, colourFlag);
  const errorColour = humanStream === process.stderr ? colour : await coloursFor(process.stderr, process.env, colourFlag);
  return {
    line: (text = '') => void humanStream.write(`${text}\n`),
    colour,
    error: (text) => void process.stderr.write(`${errorColour.red(text)}\n`),
    json: (document) => void process.stdout.write(`${JSON.stringify(document, null, 2)}\n`),
  };
}
