import { commandName } from '../core/command-name.js';
import { formatLastRun } from '../report/last-run.js';
import { readLastRun } from './last-run-file.js';
import type { ColourFlag, Output } from './output.js';

export interface ShowCommandArgs extends ColourFlag {
  json: boolean;
}

/** `check-endpoint show`: the last run's summary and failures, from its record; nothing is sent. */
export async function runShowCommand(args: ShowCommandArgs, output: Output): Promise<number> {
  const record = await readLastRun();
  if (args.json) output.json(record);
  else for (const line of formatLastRun(record, output.colour, commandName())) output.line(line);
  return 0;
}
