import type { Output } from './output.js';
import { describePlannedRun, runPlannedCheck, somethingAnswers } from '../run/check-endpoint.js';
import { type CheckEndpointOptions, planCheck } from '../run/plan.js';
import { formatCase, formatEnding, formatHeader, formatSummary, printable } from '../report/human.js';
import type { CaseReport, Report } from '../core/report.js';
import { HarRecorder } from '../report/har.js';
import { githubAnnotations, githubStepSummary } from '../report/github.js';
import { bundledContract } from '../contract/load-contract.js';
import { assembleReport, describeRun, errorReport } from '../run/assemble.js';
import { argumentKey } from '../core/argument-key.js';
import type { OptionNames } from '../core/option-error.js';
import { commandName } from '../core/command-name.js';
import { UsageError } from '../core/usage-error.js';
import { SCENARIO_SETTINGS } from '../scenarios/registry.js';
import { AgentProcess } from './agent-process.js';
import { holderSentence, isLoopback, portHolder, portOf } from './port-holder.js';
import { listenForInterrupts } from './interrupts.js';
import { createProgress } from './progress.js';
import { reportedErrorMessage } from './error-message.js';
import { appendStepSummary, unwrittenLines, wantsArchive, writeFailureReason, writeReports } from './report-files.js';
import { type RequestFlags, requestNote, requestOptions } from './request-options.js';
import type { ColourFlag } from './output.js';
import { LAST_RUN_FILE, readLastRun, writeLastRun } from './last-run-file.js';
import { type Rerun, assertRerunnable, rerunOf } from './rerun.js';
import { type LastRun, whenRun } from '../report/last-run.js';
import { assumedSchemeNote, parseTargetUrl } from '../run/target-url.js';
import { DEFAULT_TOKEN_ENV } from '../run/defaults.js';
import { querySecrets, shownUrl } from '../http/redact.js';
import { autoConfigNotice } from './config-notice.js';

/** How long --start waits for the agent to answer when --wait does not say. */
const START_WAIT_SECONDS = 60;

export interface CheckCommandArgs extends RequestFlags, ColourFlag {
  url: string;
  channel: string[];
  case: string[];
  tokenEnv?: string;
  agentTimeout?: number;
  concurrency?: number;
  maxBody?: number;
  json: boolean;
  spec?: string;
  limits: string[];
  strict: boolean;
  insecure: boolean;
  quality: boolean;
  extended: boolean;
  /** The report folder; each report format's own flag (--junit, --html …) comes under its key too (src/report/formats.ts). */
  reportDir?: string;
  baseline?: string;
  /** Plays of every case on every channel. */
  runs?: number;
  /** Seconds to keep trying the HEAD probe until the agent answers. */
  wait?: number;
  /** The agent's command, run through the shell for the length of the check. */
  start?: string;
  /** Also show the --start agent's output on a passing run. */
  verbose: boolean;
  /** With --start: check what already answers at the URL instead of refusing it. */
  reuseExisting: boolean;
  /** Print only the failed cases and the summary. */
  quiet: boolean;
  /** Stop after this many failed cases. */
  maxFailures?: number;
  /** Play only what did not pass in the last run (.check-endpoint/last-run.json). */
  failed: boolean;
  /** With --failed: play them against the URL given, though the record was made for another. */
  otherTarget: boolean;
  /** The config file read (src/cli/config.ts reads it while parsing); false: none (--no-config). */
  config?: string | false;
}

/**
 * The check's flags as the library's options. The cases' setting flags (--latency-budget) come in
 * the arguments under their keys (`latencyBudget`) and go to their fields (`latencyBudgetSeconds`).
 * The command reads the environment (`env: process.env`), and `.env` unless told otherwise.
 */
export function checkOptionsOf(args: CheckCommandArgs): CheckEndpointOptions {
  const given = new Map<string, unknown>(Object.entries(args));
  const settings = SCENARIO_SETTINGS.flatMap((setting) => {
    const value = given.get(argumentKey(setting.flag));
    return typeof value === 'number' ? [[setting.field, value] as const] : [];
  });
  return {
    channels: args.channel,
    cases: args.case,
    env: process.env,
    ...(args.spec !== undefined ? { spec: args.spec } : {}),
    ...(args.limits.length ? { limits: args.limits } : {}),
    strict: args.strict,
    insecure: args.insecure,
    quality: args.quality,
    extended: args.extended,
    ...Object.fromEntries(settings),
    ...(args.tokenEnv !== undefined ? { tokenEnv: args.tokenEnv } : {}),
    ...(args.agentTimeout !== undefined ? { agentTimeoutSeconds: args.agentTimeout } : {}),
    ...(args.concurrency !== undefined ? { concurrency: args.concurrency } : {}),
    ...(args.maxBody !== undefined ? { maxBodyBytes: args.maxBody } : {}),
    ...(args.runs !== undefined ? { runs: args.runs } : {}),
    ...(args.maxFailures !== undefined ? { maxFailures: args.maxFailures } : {}),
    ...(args.wait !== undefined ? { waitSeconds: args.wait } : args.start !== undefined ? { waitSeconds: START_WAIT_SECONDS } : {}),
    ...(args.baseline !== undefined ? { baseline: args.baseline } : {}),
    ...requestOptions(args),
  };
}

/** Prints case lines in the report's order as soon as every earlier case is done. */
function orderedPrinter(print: (caseReport: CaseReport) => void): (caseReport: CaseReport, index: number) => void {
  const waiting = new Map<number, CaseReport>();
  let next = 0;
  return (caseReport, index) => {
    waiting.set(index, caseReport);
    while (waiting.has(next)) {
      print(waiting.get(next)!);
      waiting.delete(next++);
    }
  };
}

/**
 * `check-endpoint <url>`: runs the live check and prints it. Resolves to the exit code. With
 * --json, one JSON document is printed on every exit once the flags are read: a check that cannot
 * run (a bad flag value, spec or baseline file, an unset token variable, or an internal error)
 * prints one of outcome `error`, then its message goes to stderr as ever (exit 2).
 */
export async function runCheckCommand(args: CheckCommandArgs, output: Output, names: OptionNames): Promise<number> {
  try {
    return await runCheck(args, output);
  } catch (cause) {
    if (args.json) output.json(jsonErrorReport(args.url, reportedErrorMessage(cause, names)));
    throw cause;
  }
}

/** The --json document of a check that could not run. */
export function jsonErrorReport(target: string, message: string): Report {
  return errorReport(describeRun(bundledContract(), target, []), message);
}

/** --failed: the last run's cases that did not pass, as the run's cases, channels and pairs (and its --runs, unless given). */
function rerunOptions(args: CheckCommandArgs, rerun: Rerun): CheckEndpointOptions {
  return { cases: rerun.cases, channels: rerun.channels, only: rerun.only, ...(args.runs === undefined ? { runs: rerun.runs } : {}) };
}

async function runCheck(args: CheckCommandArgs, output: Output): Promise<number> {
  if (args.start !== undefined && args.start.trim() === '') throw new UsageError('--start needs the command that starts your agent');
  if (args.reuseExisting && args.start === undefined) throw new UsageError('--reuse-existing goes with --start');
  const c = output.colour;
  // --failed narrowed by the --channel given (`all`: every channel of the last run).
  const narrow = { cases: args.case, channels: args.channel.includes('all') ? [] : args.channel };
  const record = args.failed ? await readLastRun() : undefined;
  if (record) assertRerunnable(record);
  const rerun = record ? rerunOf(record, narrow, againstNote(record, args)) : undefined;
  if (rerun?.only.length === 0) return nothingToRerun(args, rerun, output);
  const chatty = chattyOf(output, args.quiet);
  const archive = wantsArchive(args) ? new HarRecorder() : undefined;
  const progress = createProgress(process.stderr, process.env);
  const stop = new AbortController(); // aborted by the first SIGINT or SIGTERM, once the run starts
  let agent: AgentProcess | undefined;
  // The one resolution of the run's options (flags, files, environment): throws before anything is sent.
  const plan = await planCheck(args.url, {
    ...checkOptionsOf(args),
    ...(rerun ? rerunOptions(args, rerun) : {}),
    ...(archive ? { onExchange: archive.record } : {}),
    ...(args.start !== undefined ? { agentExit: () => agent?.exit() } : {}),
    signal: stop.signal,
    onPlay: (done, total, failed) => progress.update(done, total, failed),
    onCase: orderedPrinter((caseReport) => {
      if (caseReport.status === 'not-run') return; // one line for them all, below
      if (args.quiet && caseReport.passed) return;
      progress.around(() => {
        for (const line of formatCase(caseReport, c)) output.line(line);
      });
    }),
  });
  for (const line of formatHeader(describePlannedRun(plan), requestNote(plan), c)) chatty.line(line);
  const assumed = assumedSchemeNote(args.url, plan.url);
  if (assumed) output.line(c.yellow(assumed));
  if (typeof args.config === 'string') chatty.line(c.dim(`config: ${args.config}`));
  // Said on stderr even under --quiet: a found config file starts a command or writes files.
  const known = [...(plan.token ? [plan.token] : []), ...plan.headers.filter((header) => header.secret).map((header) => header.value)];
  for (const line of autoConfigNotice(args, [...known, ...querySecrets(plan.url)])) process.stderr.write(`${line}\n`);
  if (rerun) chatty.line(c.dim(rerun.note));
  if (plan.insecure) {
    chatty.line(
      c.bold(
        c.red("WARNING: --insecure: the agent's TLS certificate is NOT verified. Anyone on the path can read the token and the messages."),
      ),
    );
  }
  // What the agent prints is shown and written to agent.log: the token and secret header values are redacted from it.
  const secrets = [...(plan.token ? [plan.token] : []), ...plan.headers.filter((header) => header.secret).map((header) => header.value)];
  // Playwright's webServer rule: --start never checks someone else's agent by mistake.
  const reuse = args.start !== undefined && (await somethingAnswers(plan));
  if (reuse && !args.reuseExisting) {
    const holder = (await heldPortNote(plan.url, secrets)) ?? 'stop it';
    throw new UsageError(`something is already answering at ${shownUrl(plan.url)}; ${holder}, or pass --reuse-existing`);
  }
  if (reuse)
    chatty.line(
      c.dim(`agent: something already answers at ${shownUrl(plan.url)}; checking it (--reuse-existing), not starting ${args.start}`),
    );
  else if (args.start !== undefined) chatty.line(c.dim(`agent: ${args.start} (started by --start; waiting up to ${plan.waitSeconds} s)`));
  chatty.line();
  const startedAt = new Date(); // the JUnit file's timestamp
  agent = args.start === undefined || reuse ? undefined : new AgentProcess(args.start, secrets);
  const interrupts = listenForInterrupts((name) => {
    stop.abort(name);
    progress.around(() => output.line(c.yellow(`${name}: stopping the run; again to exit at once`)));
  });
  let report: Report;
  let endedOnItsOwn = false;
  try {
    report = await runPlannedCheck(plan);
  } finally {
    progress.clear();
    endedOnItsOwn = agent?.exit() !== undefined;
    await agent?.stop();
  }
  // A command that died on a port something else holds: what holds it, once the command's own group is gone.
  const portHolder = endedOnItsOwn && report.exitCode !== 0 ? await heldPortNote(plan.url, secrets, { foundOnly: true }) : undefined;
  try {
    return await finish(args, report, { plan, archive, agent, startedAt, portHolder }, output);
  } finally {
    interrupts.dispose();
  }
}

/**
 * --failed: which target and contract the record was made for, for its note. A URL other than the
 * record's (their redacted forms compared: the record holds no query value) is refused unless
 * --other-target says to play the cases there.
 */
function againstNote(record: LastRun, args: Pick<CheckCommandArgs, 'url' | 'otherTarget' | 'tokenEnv'>): string {
  const given = shownUrl(parseTargetUrl(args.url, args.tokenEnv ?? DEFAULT_TOKEN_ENV));
  const judged = record.spec ? ` (contract ${record.spec.version}, ${record.spec.source})` : '';
  if (given === record.target) return ` of ${record.target}${judged}`;
  if (!args.otherTarget) {
    throw new UsageError(
      `--failed: the last run (${whenRun(record)}, ${LAST_RUN_FILE}) checked ${record.target}${judged}, not ${given}. Leave the URL out to play its cases that did not pass against ${record.target} again, or add --other-target to play them against ${given}`,
    );
  }
  return ` of ${record.target}${judged}, against ${given} (--other-target)`;
}

/** After the run: the summary, the agent's output where it helps, the report files, the JSON document. */
async function finish(
  args: CheckCommandArgs,
  report: Report,
  run: {
    plan: { strict: boolean };
    archive: HarRecorder | undefined;
    agent: AgentProcess | undefined;
    startedAt: Date;
    portHolder?: string | undefined;
  },
  output: Output,
): Promise<number> {
  const c = output.colour;
  const { agent } = run;
  const chatty = chattyOf(output, args.quiet);
  if (report.outcome === 'error') output.error(report.error!.message);
  else if (args.quiet && report.exitCode === 0)
    output.line(formatSummary(report, c)); // --quiet: a passing run's summary alone
  else for (const line of formatEnding(report, c)) output.line(line);
  if (run.portHolder) output.error(`${run.portHolder[0]!.toUpperCase()}${run.portHolder.slice(1)}.`);
  const agentLines = agent?.lastLines() ?? [];
  if (agent && (report.exitCode !== 0 || (args.verbose && !args.quiet))) {
    output.line();
    const last = agentLines.length === 1 ? 'its last line' : `its last ${agentLines.length} lines`;
    output.line(c.dim(agentLines.length ? `The agent's output (${last}):` : 'The agent printed nothing.'));
    for (const line of agentLines) output.line(`  ${printable(line)}`);
  }
  const agentLog = agent ? agentLines.map((line) => `${line}\n`).join('') : undefined;
  // One file that cannot be written stops none of the others, nor the record, nor the verdict.
  const unwritten = await writeReports(
    args,
    report,
    { archive: run.archive, agentLog, strict: run.plan.strict, startedAt: run.startedAt },
    chatty,
  );
  await recordRun(report, recordedFlags(args), args.quiet);
  if (process.env.GITHUB_ACTIONS === 'true') {
    // Workflow commands on stderr: stdout may be carrying the JSON report.
    for (const line of githubAnnotations(report)) process.stderr.write(`${line}\n`);
    const summaryFile = process.env.GITHUB_STEP_SUMMARY;
    if (summaryFile) unwritten.push(...(await appendStepSummary(summaryFile, githubStepSummary(report))));
  }
  for (const line of unwrittenLines(unwritten)) output.error(line);
  if (args.json) output.json(report);
  return exitCodeWith(report, unwritten.length > 0);
}

/**
 * The process's exit code: the run's, or 2 when a report file asked for could not be written (every
 * other was, and the verdict is printed and in --json); an interrupted run keeps 130 or 143.
 */
export function exitCodeWith(report: Pick<Report, 'exitCode' | 'outcome'>, reportMissing: boolean): number {
  return reportMissing && report.outcome !== 'interrupted' ? 2 : report.exitCode;
}

/**
 * The flags that decided what a run sent and how it judged it, which --failed plays with again:
 * not where it wrote or printed, nor how it started the agent (a --start command may hold a
 * secret the shell expanded), nor which cases (the record's own). Secrets are only ever named by
 * their variables in flags, so none is here.
 */
const RECORDED_FLAGS = [
  'spec',
  'limits',
  'strict',
  'insecure',
  'quality',
  'extended',
  'tokenEnv',
  'header',
  'headerEnv',
  'dotenv',
  'agentTimeout',
  'maxBody',
  'concurrency',
  'baseline',
  ...SCENARIO_SETTINGS.map((setting) => argumentKey(setting.flag)),
] as const;

/** The run's RECORDED_FLAGS that are set, as a config file's keys (the arguments' keys are the same). */
export function recordedFlags(args: CheckCommandArgs): NonNullable<LastRun['flags']> {
  const given = new Map<string, unknown>(Object.entries(args));
  return Object.fromEntries(
    RECORDED_FLAGS.flatMap((key) => {
      const value = given.get(key);
      const isFlagValue =
        typeof value === 'string' ||
        typeof value === 'number' ||
        typeof value === 'boolean' ||
        (Array.isArray(value) && value.every((item) => typeof item === 'string'));
      return isFlagValue ? [[key, value] as const] : [];
    }),
  );
}

/** Where the lines that are not about a failure go: nowhere under --quiet. */
function chattyOf(output: Output, quiet: boolean): Output {
  return quiet ? { ...output, line: () => {} } : output;
}

/** Writes .check-endpoint/last-run.json and says so on stderr; a folder it cannot write in is said, in words, not fatal. */
async function recordRun(report: Report, flags: NonNullable<LastRun['flags']>, quiet: boolean): Promise<void> {
  try {
    const file = await writeLastRun(report, new Date(), flags);
    if (!quiet) process.stderr.write(`recorded in ${file}: ${commandName()} show prints it, --failed plays again what did not pass\n`);
  } catch (cause) {
    const reason = await writeFailureReason(LAST_RUN_FILE, cause);
    process.stderr.write(`check-endpoint: could not record this run in ${LAST_RUN_FILE}: ${reason}\n`);
  }
}

/** --failed when the last run left nothing to play: it says so, sends nothing, and passes. */
function nothingToRerun(args: CheckCommandArgs, rerun: Rerun, output: Output): number {
  output.line(rerun.note);
  if (args.json) output.json(assembleReport(describeRun(bundledContract(), args.url, []), [], false));
  return 0;
}

/**
 * What holds the port of a loopback URL, and how to stop it (port-holder.ts); undefined for
 * another host. `foundOnly`: only when /proc names the process, without the words on how to find it.
 */
async function heldPortNote(url: URL, secrets: readonly string[], options: { foundOnly?: boolean } = {}): Promise<string | undefined> {
  if (!isLoopback(url)) return undefined;
  const holder = await portHolder(portOf(url), secrets);
  return holder === undefined && options.foundOnly ? undefined : holderSentence(portOf(url), holder);
}
