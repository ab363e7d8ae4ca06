/**
 * The golden runs: the built command's human output against a real agent on loopback, with no
 * colour (NO_COLOR=1), no token variable and outside GitHub Actions, and with what varies from run
 * to run replaced (see REPLACEMENTS). test/golden.test.ts compares each with test/golden/NAME.txt;
 * `npm run golden:update` (scripts/update-golden.ts) writes them again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { FIXTURE_AGENTS } from '../fixtures/agents/catalogue.js';
import { CLI, ROOT, runCli } from './helpers.js';
import { goMissing, startGoMenuAgent } from './go-agents.js';

export const GOLDEN_DIR = join(ROOT, 'test/golden');
export const UPDATE_COMMAND = 'npm run golden:update';

export interface GoldenRun {
  /** The file's name in test/golden/, without .txt. */
  name: string;
  /** What the run shows. */
  description: string;
  /** Serves the agent the command checks. */
  start(): Promise<RunningAgent>;
  /** The command's arguments after the URL. */
  args: string[];
  exitCode: number;
  /** Why the run cannot be made on this machine (its agent needs Go, and there is none), or undefined: the test says it is skipped, and why. */
  missing?: string | undefined;
}

function fixtureAgent(name: string): () => Promise<RunningAgent> {
  const agent = FIXTURE_AGENTS.find((candidate) => candidate.name === name);
  if (!agent) throw new Error(`no fixture agent "${name}" in fixtures/agents/catalogue.ts`);
  return () => serveAgent(agent.handler);
}

export const GOLDEN_RUNS: readonly GoldenRun[] = [
  {
    name: 'pass-reference-all-channels',
    description: 'a passing run: the reference agent, every case on every channel',
    start: () => startReferenceAgent(),
    args: ['--channel', 'all'],
    exitCode: 0,
  },
  {
    name: 'fail-schema-typo-buttton',
    description:
      'a failing run: the digest of its one problem (a schema finding on turn 1 of double-text) with its hint, the reply and its reproduce line, then the case lines, the failed one naming it',
    start: fixtureAgent('typo-buttton-on-double-text'),
    args: [],
    exitCode: 1,
  },
  {
    name: 'fail-quiet-typo-buttton',
    description:
      'a failing run under --quiet: no header and no case line, the digest of its one problem with its hint, the reply and the reproduce line, and the summary',
    start: fixtureAgent('typo-buttton-on-double-text'),
    args: ['--quiet'],
    exitCode: 1,
  },
  {
    name: 'fail-json-html-on-typed',
    description:
      'a failing run: an error and a warning on the same turn, two problems in the digest with their hints and one reproduce line (the second points to the first), the case line naming both with a warning count',
    start: fixtureAgent('html-on-typed'),
    args: [],
    exitCode: 1,
  },
  {
    name: 'fail-menu-three-defects',
    description:
      "the café's Go agent with a menu as a team first wrote it (issue 54; fixtures/agents/go-menu.patch): three problems, each with the value at fault: the list opener's 25 characters, the eleventh row, the buttons on SMS, whose hint names the Go way",
    start: startGoMenuAgent,
    args: ['--channel', 'whatsapp', '--channel', 'sms', '--concurrency', '1'],
    exitCode: 1,
    missing: goMissing(),
  },
];

/** What varies from run to run, and the fixed text that stands in its place in the golden files. */
export const REPLACEMENTS: readonly { what: string; pattern: RegExp; by: (match: string, ...groups: string[]) => string }[] = [
  {
    what: "the agent's ephemeral port, in the header and the reproduce lines",
    pattern: /(http:\/\/127\.0\.0\.1:)\d+/g,
    by: (_, origin) => `${origin}PORT`,
  },
  {
    what: 'the command as a hint names it: the built command run by node from wherever the project is',
    pattern: /`node \S+\/bin\/check-endpoint\.cjs /g,
    by: () => '`check-endpoint ',
  },
  {
    what: 'the run id in conversation and message ids (chk_ and 8 hex digits)',
    pattern: /\bchk_[0-9a-f]{8}\b/g,
    by: () => 'chk_xxxxxxxx',
  },
  {
    what: "a case's duration, right-aligned at the end of its case line: the digits and the spaces before them, kept to the same width",
    pattern: /^((?:PASS|FAIL) {2}.*? turns?)( +\d+ ms)/gm,
    by: (_, before, duration) => `${before}${'NNN ms'.padStart(duration.length)}`,
  },
];

export function normalise(output: string): string {
  return REPLACEMENTS.reduce((text, { pattern, by }) => text.replace(pattern, by), output);
}

export interface GoldenOutput {
  code: number | null;
  /** The human output (stdout), normalised. */
  output: string;
  stderr: string;
}

/** The one line every run says on stderr: that it was recorded in .check-endpoint/last-run.json. */
export const RECORDED_LINE = `recorded in .check-endpoint/last-run.json: node ${CLI} show prints it, --failed plays again what did not pass\n`;

/**
 * Serves the run's agent, runs the built command against it (in a folder of its own, where it
 * records the run) and gives what it printed, normalised; stderr without the line saying it recorded the run.
 */
export async function runGolden(run: GoldenRun): Promise<GoldenOutput> {
  const agent = await run.start();
  const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-golden-'));
  try {
    const result = await runCli([agent.url, ...run.args], {
      cwd: folder,
      env: { FLOW_FRAMEWORK_AGENT_TOKEN: undefined, GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: undefined },
    });
    return { code: result.code, output: normalise(result.stdout), stderr: result.stderr.replace(RECORDED_LINE, '') };
  } finally {
    await agent.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

export const goldenFile = (run: GoldenRun): string => join(GOLDEN_DIR, `${run.name}.txt`);
