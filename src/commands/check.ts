import type { KeptConversation } from '../cases/case.js';
import type { CaseProgress } from '../run/options.js';
import { EXPLORE_CASE_ID } from '../cases/explore/explore-case.js';
import { exploreHeaderLine, keepExplored, keptForRun } from './explore-file.js';
import type { Output } from './output.js';
import { checkEndpointWith, describePlannedRun, somethingAnswers } from '../run/check-endpoint.js';
import type { CheckEndpointOptions, CheckPlan } from '../run/plan.js';
import { caseColumns, formatBaseline, formatCase, formatEnding, formatHeader, formatSummary, printable } from '../report/human.js';
import { formatDigest, problemsOf } from '../report/digest.js';
import { type AgentLog, agentLogPath, openAgentLog } from './agent-log.js';
import type { Report } from '../core/report.js';
import { HarRecorder } from '../report/har.js';
import { githubAnnotations, githubStepSummary } from '../report/github.js';
import { assumedSchemeNote, parseTargetUrl, shownTarget } from '../run/target-url.js';
import { scheduledPairs } from '../run/play-all.js';
import { bundledContract } from '../contract/load-contract.js';
import { assembleReport, describeRun, errorReport } from '../run/assemble.js';
import { argumentKey } from '../core/argument-key.js';
import { OptionError, type OptionNames } from '../core/option-error.js';
import { UsageError } from '../core/usage-error.js';
import { SETTING_OPTIONS } from '../cases/registry.js';
import type { RunFlagArgs } from '../run/run-flag-args.js';
import { flagOptionsOf } from './flag-options.js';
import { caseSettingsOf, vetCaseSettingFlags } from './case-setting-flag.js';
import { AgentProcess } from './agent-process.js';
import { heldPortNote, refuseEmptyStart, startSecrets, waitSecondsOf } from './start-flag.js';
import { listenForInterrupts } from './interrupts.js';
import { caseProgressText, createProgress } from './progress.js';
import { reportedErrorMessage } from './error-message.js';
import { recordedFlags } from './recorded-flags.js';
import { appendStepSummary, unwrittenLines, wantsArchive, writeReports } from './report-files.js';
import { requestNote, requestOptions } from './request-options.js';
import type { ColourFlag } from './output.js';
import { LAST_RUN_FILE, readLastRun } from './last-run-file.js';
import { recordRun } from './record-run.js';
import { type Rerun, assertRerunnable, rerunOf } from './rerun.js';
import { failedFirst } from './failed-first.js';
import { type LastRun, whenRun } from '../report/last-run.js';
import { DEFAULT_TOKEN_ENV } from '../run/defaults.js';
import { autoConfigNotice } from './config-notice.js';
import { redactText, shownUrl } from '../http/redact.js';
import { runSecrets } from '../http/sent-headers.js';

/** The check's arguments: the run's options' flags (from the descriptor table), and the command's own. */
export type CheckCommandArgs = RunFlagArgs &
  ColourFlag & {
    url: string;
    json: boolean;
    /** The report folder; each report format's own flag (--junit, --html …) comes under its key too (src/report/formats.ts). */
    reportDir?: string;
    /** The agent's command, run through the shell for the length of the check. */
    start?: string;
    /** Also show the --start agent's output on a passing run. */
    verbose: boolean;
    /** With --start: check what already answers at the URL instead of refusing it. */
    reuseExisting: boolean;
    /** Print only the digest of what failed and the summary. */
    quiet: boolean;
    /** Play only what did not pass in the last run (.check-endpoint/last-run.json). */
    failed: boolean;
    /** With --failed: play them against the URL given, though the record was made for another. */
    otherTarget: boolean;
    /** Play every case, those that did not pass in the last run first. */
    failedFirst: boolean;
    /** Check again on every change to a file of the agent's folder (src/commands/watch.ts). */
    watch: boolean;
    /** With --watch: the folder watched; the current one when left out. */
    watchDir?: string;
    /** With --watch: gitignore patterns of more files to leave out, beside the agent's .gitignore files. */
    watchIgnore: string[];
    /** The config file read (src/cli/config.ts reads it while parsing); false: none (--no-config). */
    config?: string | false;
    /** The flags the config file set (and the command line did not), by the key that set them: `{ 'agent-timeout': 'agentTimeout' }`. */
    configKeys?: Readonly<Record<string, string>>;
  };

/**
 * The check's flags as the library's options, from the descriptor table: each flag's value goes to
 * its field (the cases' older setting flags, --latency-budget, to theirs). By hand only the special
 * ones: --header, --header-env and --dotenv (requestOptions), --case-setting, and --wait (60 s with
 * --start). The command reads the environment (`env: process.env`), and `.env` unless told otherwise.
 */
export function checkOptionsOf(args: CheckCommandArgs): CheckEndpointOptions {
  const given = new Map<string, unknown>(Object.entries(args));
  const options = flagOptionsOf(args, 'check');
  for (const option of SETTING_OPTIONS) {
    const value = option.flag === undefined ? undefined : given.get(argumentKey(option.flag));
    if (typeof value === 'number') options.set(option.field, value);
  }
  const wait = waitSecondsOf(args);
  return {
    ...Object.fromEntries(options),
    ...(wait !== undefined ? { waitSeconds: wait } : {}),
    ...(args.caseSetting.length ? { caseSettings: caseSettingsOf(args.caseSetting) } : {}),
    ...requestOptions(args),
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
    // An option's error names where its value came from: the flag, the config file's key, the record.
    const sourced = namesBySource(args, names);
    if (args.json) output.json(jsonErrorReport(args.url, reportedErrorMessage(cause, sourced)));
    throw cause instanceof OptionError ? new UsageError(cause.messageFor(sourced)) : cause;
  }
}

/**
 * How the check's errors name an option: by where its value came from. A flag given names the
 * flag (`--runs`); a value the config file set names the file and its key
 * (`check-endpoint.config.json: "agentTimeout"`); one --failed took from the last run's record
 * names the record (`.check-endpoint/last-run.json: "runs"`).
 */
function namesBySource(args: CheckCommandArgs, flags: OptionNames): OptionNames {
  const fromRecord = args.failed && args.runs === undefined ? ['runs'] : [];
  return {
    kind: 'flags',
    name: (field) => {
      if (fromRecord.includes(field)) return `${LAST_RUN_FILE}: "${field}"`;
      const flag = flags.name(field).replace(/^--/, '');
      const key = args.configKeys?.[flag];
      return key !== undefined && typeof args.config === 'string' ? `${args.config}: "${key}"` : flags.name(field);
    },
  };
}

/** The --json document of a check that could not run; the target as given, shown with its secrets redacted. */
export function jsonErrorReport(target: string, message: string): Report {
  return errorReport(describeRun(bundledContract(), shownTarget(target), []), message);
}

/** --failed: the last run's cases that did not pass, as the run's cases, channels and pairs (and its --runs, unless given). */
function rerunOptions(args: CheckCommandArgs, rerun: Rerun): CheckEndpointOptions {
  return { cases: rerun.cases, channels: rerun.channels, ...(args.runs === undefined ? { runs: rerun.runs } : {}) };
}

async function runCheck(args: CheckCommandArgs, output: Output): Promise<number> {
  refuseEmptyStart(args.start);
  if (args.reuseExisting && args.start === undefined) throw new UsageError('--reuse-existing goes with --start');
  // A config file's watchDir is for its --watch runs; given on the command line without --watch, it would be ignored.
  if (args.watchDir !== undefined && args.configKeys?.['watch-dir'] === undefined) throw new UsageError('--watch-dir goes with --watch');
  if (args.watchIgnore.length && args.configKeys?.['watch-ignore'] === undefined) throw new UsageError('--watch-ignore goes with --watch');
  if (args.failed && args.failedFirst)
    throw new UsageError('--failed-first plays every case, --failed only those that did not pass: give one of them');
  vetCaseSettingFlags(args.caseSetting);
  const c = output.colour;
  // --failed narrowed by the --channel given (`all`: every channel of the last run).
  const narrow = { cases: args.case, channels: args.channel.includes('all') ? [] : args.channel };
  const record = args.failed ? await readLastRun() : undefined;
  if (record) assertRerunnable(record);
  // Nothing left to play: said, whatever URL was given (it is not used); else the URL must be the record's.
  const left = record ? rerunOf(record, narrow) : undefined;
  if (left?.only.length === 0) return nothingToRerun(args, left, output);
  const rerun = record ? rerunOf(record, narrow, againstNote(record, args)) : undefined;
  // The conversations --explore kept: read only by a run that explores (a run that does not never reads the file).
  const kept = keptForRun(args, rerun?.cases);
  const first = args.failedFirst ? await failedFirst() : undefined;
  const chatty = chattyOf(output, args.quiet);
  const archive = wantsArchive(args) ? new HarRecorder() : undefined;
  const progress = createProgress(process.stderr, process.env);
  const stop = new AbortController(); // aborted by the first SIGINT or SIGTERM, once the run starts
  let agent: AgentProcess | undefined;
  let agentLog: AgentLog | undefined;
  let planned: CheckPlan | undefined;
  let interrupts: { dispose(): void } | undefined;
  const startedAt = new Date(); // the JUnit file's timestamp
  // The library's one sequence: the options resolved (throwing before anything is sent), the
  // command's header and agent (onPlanned), the probe, the cases, the report.
  const run = checkEndpointWith(
    args.url,
    {
      ...checkOptionsOf(args),
      ...(rerun ? rerunOptions(args, rerun) : {}),
      ...(archive ? { onExchange: archive.record } : {}),
      signal: stop.signal,
      // The case lines come after the run, under the digest of its problems: the progress line (on a terminal) shows it going.
      onPlay: (done: number, total: number, failed: number) => progress.update(done, total, failed),
      onCaseProgress: (going: CaseProgress) => progress.detail(caseProgressText(going)),
    },
    {
      ...(rerun ? { only: rerun.only } : {}),
      ...(first?.pairs.length ? { first: first.pairs } : {}),
      ...(args.start !== undefined ? { agentExit: () => agent?.exit() } : {}),
      ...(kept ? { exploreKept: kept, exploreKeptOnly: rerun !== undefined } : {}),
      onPlanned: async (plan) => {
        planned = plan;
        ({ agent, agentLog } = await beforeTheRun(args, plan, rerun?.note ?? first?.note(scheduledPairs(plan)), output));
        interrupts = listenForInterrupts((name) => {
          stop.abort(name);
          progress.around(() => output.line(c.yellow(`${name}: stopping the run; again to exit at once`)));
        });
      },
    },
  );
  let report: Report;
  let endedOnItsOwn = false;
  try {
    report = await run;
  } finally {
    progress.clear();
    endedOnItsOwn = agent?.exit() !== undefined; // it ended before the check stopped it
    await agent?.stop();
    if (agent?.backgrounded())
      output.error(
        `--start: its command returned at once and left the agent running in the background (a trailing \`&\`?): it was checked, then stopped with its command's group; --start keeps an agent in the foreground, so the \`&\` is not needed`,
      );
    agentLog?.close();
  }
  // onPlanned ran: the run got past its options.
  const plan = planned!;
  // A command that died on a port something else holds: what holds it, once the command's own group is gone.
  const holder =
    endedOnItsOwn && report.exitCode !== 0
      ? await heldPortNote(plan.url, runSecrets(plan, plan.url, plan.proxy?.url), { foundOnly: true })
      : undefined;
  try {
    return await finish(
      args,
      report,
      { plan, archive, agent: agent && { process: agent, died: endedOnItsOwn }, startedAt, portHolder: holder, kept: kept ?? [] },
      output,
    );
  } finally {
    interrupts?.dispose();
  }
}

/**
 * Once the run is planned, before anything is sent: the header, the notes on the config file,
 * --failed or --failed-first (`orderNote`) and --insecure, and the agent --start starts (unless
 * something already answers and --reuse-existing says to check it).
 */
async function beforeTheRun(
  args: CheckCommandArgs,
  plan: CheckPlan,
  orderNote: string | undefined,
  output: Output,
): Promise<{ agent: AgentProcess | undefined; agentLog: AgentLog | undefined }> {
  const c = output.colour;
  const chatty = chattyOf(output, args.quiet);
  for (const line of formatHeader(describePlannedRun(plan), requestNote(plan), c)) chatty.line(line);
  const assumed = assumedSchemeNote(args.url, plan.url);
  if (assumed) output.line(c.yellow(assumed));
  // Said on stderr even under --quiet: a found config file starts a command or writes files; then it is the one `config:` line.
  const notice = autoConfigNotice(args, runSecrets(plan, plan.url, plan.proxy?.url));
  if (typeof args.config === 'string' && notice.length === 0) chatty.line(c.dim(`config: ${args.config}`));
  for (const line of notice) process.stderr.write(`${line}\n`);
  if (orderNote) chatty.line(c.dim(orderNote));
  if (plan.cases.some((testCase) => testCase.id === EXPLORE_CASE_ID)) chatty.line(c.dim(exploreHeaderLine(plan.explore)));
  if (plan.insecure) {
    chatty.line(
      c.bold(
        c.red("WARNING: --insecure: the agent's TLS certificate is NOT verified. Anyone on the path can read the token and the messages."),
      ),
    );
  }
  // Never in the --start command as shown, in what the agent prints (shown and in agent.log), or in the command line of a process found holding the port.
  const secrets = startSecrets(plan, args.start);
  const shownStart = args.start === undefined ? undefined : redactText(args.start, secrets);
  // Playwright's webServer rule: --start never checks someone else's agent by mistake.
  const reuse = args.start !== undefined && (await somethingAnswers(plan));
  if (reuse && !args.reuseExisting) {
    const holder = (await heldPortNote(plan.url, secrets)) ?? 'stop it';
    throw new UsageError(`something is already answering at ${shownUrl(plan.url)}; ${holder}, or pass --reuse-existing`);
  }
  if (reuse)
    chatty.line(
      c.dim(`agent: something already answers at ${shownUrl(plan.url)}; checking it (--reuse-existing), not starting ${shownStart}`),
    );
  // What the agent prints goes to its log file, not among the check's lines.
  const agentLog = args.start === undefined || reuse ? undefined : openAgentLog(agentLogPath(args.reportDir));
  if (args.start !== undefined && !reuse) {
    const logged = agentLog ? `; its output in ${agentLog.file}` : '';
    chatty.line(c.dim(`agent: ${shownStart} (started by --start; waiting up to ${plan.waitSeconds} s${logged})`));
  }
  chatty.line();
  const agent = args.start === undefined || reuse ? undefined : new AgentProcess(args.start, secrets, agentLog?.line);
  return { agent, agentLog };
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

/**
 * After the run: the digest of its problems, the case lines (each naming its problems), the agent's
 * last lines where it died (or with --verbose), the report files, and last the summary, then (on
 * stderr) where the run is recorded; the JSON document on stdout.
 */
async function finish(
  args: CheckCommandArgs,
  report: Report,
  run: {
    plan: { strict: boolean };
    archive: HarRecorder | undefined;
    agent: { process: AgentProcess; died: boolean } | undefined;
    startedAt: Date;
    portHolder?: string | undefined;
    /** The conversations --explore kept before this run. */
    kept: readonly KeptConversation[];
  },
  output: Output,
): Promise<number> {
  const c = output.colour;
  const { agent } = run;
  const chatty = chattyOf(output, args.quiet);
  const problems = report.outcome === 'error' ? [] : problemsOf(report);
  if (report.outcome !== 'error') {
    const digest = formatDigest(report, c);
    for (const line of digest) output.line(line);
    if (digest.length && !args.quiet) output.line();
    // The not-run cases get one line for them all, in the ending.
    const played = report.cases.filter((caseReport) => caseReport.status !== 'not-run');
    const columns = caseColumns(played);
    const reproduce = args.verbose;
    for (const caseReport of played) for (const line of formatCase(caseReport, c, problems, columns, { reproduce })) chatty.line(line);
  }
  if (agent && (agent.died || report.outcome === 'error' || (args.verbose && !args.quiet))) {
    const agentLines = agent.process.lastLines();
    output.line();
    const last = agentLines.length === 1 ? 'its last line' : `its last ${agentLines.length} lines`;
    output.line(c.dim(agentLines.length ? `The agent's output (${last}):` : 'The agent printed nothing.'));
    for (const line of agentLines) output.line(`  ${printable(line)}`);
  }
  if (run.portHolder) output.error(`${run.portHolder[0]!.toUpperCase()}${run.portHolder.slice(1)}.`);
  // One file that cannot be written stops none of the others, nor the record, nor the verdict.
  const unwritten = await writeReports(args, report, { archive: run.archive, strict: run.plan.strict, startedAt: run.startedAt }, chatty);
  if (process.env.GITHUB_ACTIONS === 'true') {
    // Workflow commands on stderr (stdout may be carrying the JSON report), before the summary, which stays last in the log.
    for (const line of githubAnnotations(report)) process.stderr.write(`${line}\n`);
    const summaryFile = process.env.GITHUB_STEP_SUMMARY;
    if (summaryFile) unwritten.push(...(await appendStepSummary(summaryFile, githubStepSummary(report))));
  }
  if (report.outcome === 'error') output.error(report.error!.message);
  else if (args.quiet && report.exitCode === 0) {
    // --quiet: a passing run's summary alone, under its warnings' digest and what its baseline expected.
    const baseline = formatBaseline(report, c);
    for (const line of baseline) output.line(line);
    if (problems.length || baseline.length) output.line();
    output.line(formatSummary(report, c));
  } else for (const line of formatEnding(report, c)) output.line(line);
  await recordRun(report, recordedFlags(args), args.quiet);
  await keepExplored(report, run.kept, args.quiet);
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

/** Where the lines that are not about a failure go: nowhere under --quiet. */
function chattyOf(output: Output, quiet: boolean): Output {
  return quiet ? { ...output, line: () => {} } : output;
}

/** --failed when the last run left nothing to play: it says so, sends nothing, and passes. */
function nothingToRerun(args: CheckCommandArgs, rerun: Rerun, output: Output): number {
  output.line(rerun.note);
  if (args.json) output.json(assembleReport(describeRun(bundledContract(), shownTarget(args.url), []), [], false));
  return 0;
}
