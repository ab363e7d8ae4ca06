/**
 * `check-endpoint scenarios --lint [DIR]`: checks the team's scenario files alone, sending nothing
 * (a pre-commit hook, an editor): every problem with its file, line, column and fix, the keys not
 * checked here, and a count. Exit 0 when every file is valid, 1 when one has a problem, 2 when the
 * folder cannot be read.
 */
import { type Contract, knownChannels } from '../contract/contract.js';
import { commandName } from '../core/command-name.js';
import { loadContract } from '../contract/load-contract.js';
import { REPORT_FORMAT_VERSION } from '../core/report.js';
import { TOOL_VERSION } from '../core/version.js';
import { lintLines } from '../report/scenario-lines.js';
import { DEFAULT_SCENARIO_FOLDER } from '../scenario-files/scenario-file.js';
import { namedLimitChannels } from '../run/limits-option.js';
import { scenariosSection } from '../run/scenario-report.js';
import { resolveTeamScenarios } from '../run/team-scenarios.js';
import type { Output } from './output.js';

export interface ScenariosCommandArgs {
  /** The folder of `*.yaml` files; tests/scenarios when left out. */
  folder: string | undefined;
  /** What the command does anyway: check the files alone (the flag says so in a hook's command line). */
  lint: boolean;
  json: boolean;
  spec?: string;
  limits: string[];
}

/** The channels a scenario may name: the contract's platforms and the channels --limits names. */
function channelsOf(contract: Contract, limits: readonly string[]): string[] {
  return [...new Set([...knownChannels(contract), ...namedLimitChannels(limits)])];
}

export async function runScenariosCommand(args: ScenariosCommandArgs, output: Output): Promise<number> {
  const contract = await loadContract(args.spec);
  const folder = args.folder ?? DEFAULT_SCENARIO_FOLDER;
  const team = await resolveTeamScenarios(folder, channelsOf(contract, args.limits), undefined, `scenarios --lint ${folder}`);
  const section = scenariosSection(team, [], commandName(), { lint: true });
  // Nothing is played here: a file without problems is `valid`.
  const files = section.files.map((file) => (file.status === 'invalid' ? file : { ...file, status: 'valid' as const }));
  const exitCode = files.some((file) => file.status === 'invalid') ? 1 : 0;
  if (args.json) {
    output.json({ version: REPORT_FORMAT_VERSION, tool: { name: 'check-endpoint', version: TOOL_VERSION }, exitCode, ...section, files });
  } else {
    for (const line of lintLines({ ...section, files }, output.colour)) output.line(line);
  }
  return exitCode;
}
