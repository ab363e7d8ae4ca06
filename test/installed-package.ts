/**
 * What the tests of the package as a user installs it share (test/pack.test.ts, the tarball;
 * test/git-install.test.ts, the git repository): npm and npx by their names here, the line a
 * passing check of every case on every channel ends with, and a command run as a user's shell runs it.
 */
import { type CliResult, runCommand } from './helpers.js';
import { CHANNELS, FIXED_CASE_IDS } from './contract-ids.js';

export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
export const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** The closing line of a passing run of every case on every channel. */
export const ALL_PASSED = `${CHANNELS.length * FIXED_CASE_IDS.length} of ${CHANNELS.length * FIXED_CASE_IDS.length} cases passed.`;

/** Runs a command to its end, whatever its exit code; no colour, no token, no update notices. */
export function runAsUser(command: string, args: string[], cwd: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false', ...extraEnv };
  delete env.FORCE_COLOR;
  delete env.FLOW_FRAMEWORK_AGENT_TOKEN;
  return runCommand(command, args, { cwd, env });
}

/** A text as a regular expression matches it, character for character. */
export function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
