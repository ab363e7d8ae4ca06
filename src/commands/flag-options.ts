/**
 * A command's flags as the library's options, from the descriptor table: each flag the command
 * takes sets its field, unless it is one of the special ones each command maps by hand (--header,
 * --header-env, --dotenv, --wait, --case-setting). The command reads the environment (`env: process.env`).
 */
import { argumentKey } from '../core/argument-key.js';
import type { CommandName } from '../core/command-name.js';
import { DESCRIBED } from '../run/option-descriptors.js';

export function flagOptionsOf(args: object, command: CommandName): Map<string, unknown> {
  const given = new Map<string, unknown>(Object.entries(args));
  const options = new Map<string, unknown>([['env', process.env]]);
  for (const { field, flag, special } of DESCRIBED) {
    if (flag === undefined || special || !flag.commands.includes(command)) continue;
    const value = given.get(argumentKey(flag.name));
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) options.set(field, value);
  }
  return options;
}
