/**
 * A config file found in the current folder (not named by --config) is a file anyone with commit
 * access wrote: before the run starts a command or writes files, it says which file it read, the
 * command (with every known secret redacted) and where the files go, on stderr, even under --quiet.
 */
import { resolve } from 'node:path';
import { redactText } from '../http/redact.js';

/** The file the check reads from the current folder when --config does not name one. */
export const CONFIG_FILE = 'check-endpoint.config.json';

/** What the notice reads of the check's arguments: the config file, the command, and the report files' flags. */
export interface NoticeArgs {
  config?: string | false;
  start?: string;
  junit?: string;
  har?: string;
  reportDir?: string;
  html?: string;
  writeBaseline?: string;
}

const REPORT_FLAGS: readonly [Exclude<keyof NoticeArgs, 'config' | 'start'>, string][] = [
  ['junit', '--junit'],
  ['har', '--har'],
  ['reportDir', '--report-dir'],
  ['html', '--html'],
  ['writeBaseline', '--write-baseline'],
];

/**
 * The lines that say so, or none: when the config file was found in the current folder and the run
 * starts a command or writes report files. `secrets` are redacted from the command.
 */
export function autoConfigNotice(args: NoticeArgs, secrets: readonly string[], cwd = process.cwd()): string[] {
  if (args.config !== CONFIG_FILE) return [];
  const writes = REPORT_FLAGS.flatMap(([key, flag]) => {
    const path = args[key];
    return path === undefined ? [] : [`${flag} ${resolve(cwd, path)}`];
  });
  if (args.start === undefined && writes.length === 0) return [];
  return [
    `config: ${resolve(cwd, CONFIG_FILE)} (found in the current folder) makes this run:`,
    ...(args.start !== undefined ? [`  start: ${redactText(args.start, secrets)}`] : []),
    ...(writes.length ? [`  write: ${writes.join(', ')}`] : []),
  ];
}
