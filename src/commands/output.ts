import type { ChalkInstance } from 'chalk';
import { colourFor } from '../report/colour.js';

/** Where a command writes: people's lines, and (with --json) the one JSON document on stdout. */
export interface Output {
  /** Human lines: stdout, or stderr when stdout carries JSON. */
  line(text?: string): void;
  /** The colours for human lines. */
  colour: ChalkInstance;
  /** Why the command could not do its job: always on stderr. */
  error(text: string): void;
  /** The JSON document, on stdout. */
  json(document: unknown): void;
}

export function createOutput(json: boolean): Output {
  const humanStream = json ? process.stderr : process.stdout;
  return {
    line: (text = '') => void humanStream.write(`${text}\n`),
    colour: colourFor(humanStream),
    error: (text) => void process.stderr.write(`${colourFor(process.stderr).red(text)}\n`),
    json: (document) => void process.stdout.write(`${JSON.stringify(document, null, 2)}\n`),
  };
}
