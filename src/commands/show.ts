import { commandName } from '../core/command-name.js';
import { describeStep } from '../cases/explore/explore-step.js';
import type { KeptConversation } from '../cases/case.js';
import type { Colours } from '../report/colour.js';
import { formatLastRun } from '../report/last-run.js';
import { printable } from '../report/text.js';
import { EXPLORE_FILE, readKeptConversations } from './explore-file.js';
import { readLastRun } from './last-run-file.js';
import type { ColourFlag, Output } from './output.js';

export interface ShowCommandArgs extends ColourFlag {
  json: boolean;
}

/** The conversations --explore kept, each as numbered steps; none when it kept none. */
function keptLines(kept: readonly KeptConversation[], c: Colours): string[] {
  if (kept.length === 0) return [];
  const count = kept.length === 1 ? '1 failing conversation' : `${kept.length} failing conversations`;
  return [
    '',
    c.bold(`explore: ${count} kept in ${EXPLORE_FILE}, played first by the next --explore and alone by --failed:`),
    ...kept.flatMap((conversation) => [
      `  ${printable(conversation.channel)}, ${printable(conversation.title)}: ${conversation.steps.length === 1 ? '1 message' : `${conversation.steps.length} messages`}`,
      ...conversation.steps.map((step, index) => c.dim(`    ${index + 1}. ${printable(describeStep(step))}`)),
    ]),
  ];
}

/** `check-endpoint show`: the last run's summary and failures, from its record, and the conversations --explore kept; nothing is sent. */
export async function runShowCommand(args: ShowCommandArgs, output: Output): Promise<number> {
  const record = await readLastRun();
  if (args.json) output.json(record);
  else
    for (const line of [...formatLastRun(record, output.colour, commandName()), ...keptLines(readKeptConversations(), output.colour)])
      output.line(line);
  return 0;
}
