import { promises as fs } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Output } from './output.js';
import { DEFAULT_TOKEN_ENV, checkEndpoint, describePlannedRun } from '../run/check-endpoint.js';
import { type CheckEndpointOptions, planCheck } from '../run/plan.js';
import { formatBaseline, formatCase, formatHeader, formatNotRun, formatSummary, stoppedSummary } from '../report/human.js';
import type { CaseReport, Report } from '../core/report.js';
import { parseBaseline } from '../run/baseline.js';
import { writeBaseline } from '../report/baseline-file.js';
import { HarRecorder } from '../report/har.js';
import { githubAnnotations, githubStepSummary } from '../report/github.js';
import { renderJunit } from '../report/junit.js';
import { resolveChannels } from '../run/channels.js';
import { loadContract } from '../contract/load-contract.js';
import { answerValidators } from '../contract/compile-contract.js';
import { namedLimitChannels, readLimitsOptions } from './limits-option.js';
import { UsageError } from '../core/usage-error.js';

export interface CheckCommandArgs {
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
  /** Write the HTML chat preview here. */
  html?: string;
  junit?: string;
  har?: string;
  reportDir?: string;
  baseline?: string;
  writeBaseline?: string;
  qualityConversations?: number;
  latencyBudget?: number;
}

/** Appends to a file (the GitHub step summary). */
async function appendReportFile(file: string, content: string): Promise<void> {
  try {
    await fs.appendFile(file, content);
  } catch (cause) {
    throw new UsageError(`cannot write ${file}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`);
  }
}

/** Writes a report file, creating its folder; a failure is a usage error (exit 2), not a crash. */
export async function writeReportFile(file: string, content: string): Promise<void> {
  try {
    await fs.mkdir(dirname(resolve(file)), { recursive: true });
    await fs.writeFile(file, content);
  } catch (cause) {
    throw new UsageError(`cannot write ${file}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`);
  }
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

/** `check-endpoint <url>`: runs the live check and prints it. Resolves to the exit code. */
export async function runCheckCommand(args: CheckCommandArgs, output: Output): Promise<number> {
  const contract = await loadContract(args.spec);
  answerValidators(contract); // a contract whose answer schema does not compile stops here, exit 2
  const tokenEnv = args.tokenEnv ?? DEFAULT_TOKEN_ENV;
  const channels = resolveChannels(args.channel, contract, namedLimitChannels(args.limits));
  const custom = channels.filter((name) => !Object.hasOwn(contract.platforms, name));
  const options: CheckEndpointOptions = {
    channels,
    cases: args.case,
    contract,
    limits: await readLimitsOptions(args.limits, custom),
    strict: args.strict,
    insecure: args.insecure,
    quality: args.quality,
    extended: args.extended,
    ...(args.qualityConversations !== undefined ? { qualityConversations: args.qualityConversations } : {}),
    ...(args.latencyBudget !== undefined ? { latencyBudgetSeconds: args.latencyBudget } : {}),
    ...(args.tokenEnv !== undefined ? { tokenEnv: args.tokenEnv } : {}),
    ...(args.agentTimeout !== undefined ? { agentTimeoutSeconds: args.agentTimeout } : {}),
    ...(args.concurrency !== undefined ? { concurrency: args.concurrency } : {}),
    ...(args.maxBody !== undefined ? { maxBodyBytes: args.maxBody } : {}),
  };
  const baseline =
    args.baseline === undefined
      ? undefined
      : { file: args.baseline, entries: parseBaseline(await readText(args.baseline, 'baseline'), args.baseline) };
  const plan = planCheck(args.url, options); // throws UsageError before anything is sent
  const c = output.colour;
  const tokenNote = plan.token ? `token: from ${tokenEnv}` : `token: none (${tokenEnv} is not set)`;
  for (const line of formatHeader(describePlannedRun(plan), tokenNote, c)) output.line(line);
  if (plan.insecure) {
    output.line(
      c.bold(
        c.red("WARNING: --insecure: the agent's TLS certificate is NOT verified. Anyone on the path can read the token and the messages."),
      ),
    );
  }
  output.line();
  const archive = args.har !== undefined || args.reportDir !== undefined ? new HarRecorder() : undefined;
  const report = await checkEndpoint(args.url, {
    ...options,
    ...(baseline ? { baseline } : {}),
    ...(archive ? { onExchange: archive.record } : {}),
    onCase: orderedPrinter((caseReport) => {
      if (caseReport.status === 'not-run') return; // one line for them all, below
      for (const line of formatCase(caseReport, c)) output.line(line);
    }),
  });
  if (report.outcome === 'error') output.error(report.error!.message);
  else {
    for (const line of [...formatNotRun(report, c), ...formatBaseline(report, c)]) output.line(line);
    output.line();
    output.line(formatSummary(report, c));
    const stopped = stoppedSummary(report);
    if (stopped) output.line(c.bold(c.red(stopped)));
  }
  await writeReports(args, report, archive, plan.strict, output);
  if (process.env.GITHUB_ACTIONS === 'true') {
    // Workflow commands on stderr: stdout may be carrying the JSON report.
    for (const line of githubAnnotations(report)) process.stderr.write(`${line}\n`);
    const summaryFile = process.env.GITHUB_STEP_SUMMARY;
    if (summaryFile) await appendReportFile(summaryFile, githubStepSummary(report));
  }
  if (args.json) output.json(report);
  return report.exitCode;
}

async function readText(file: string, what: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (cause) {
    throw new UsageError(`cannot read the ${what} file ${file}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`);
  }
}

/** The report files asked for: JUnit, HAR, the report folder, the HTML preview, a new baseline. */
async function writeReports(
  args: CheckCommandArgs,
  report: Report,
  archive: HarRecorder | undefined,
  strict: boolean,
  output: Output,
): Promise<void> {
  const written: string[] = [];
  const write = async (file: string, content: string): Promise<void> => {
    await writeReportFile(file, content);
    written.push(file);
  };
  if (args.junit !== undefined) await write(args.junit, renderJunit(report));
  if (args.har !== undefined && archive) await write(args.har, archive.toHar());
  if (args.reportDir !== undefined) {
    await write(join(args.reportDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
    await write(join(args.reportDir, 'junit.xml'), renderJunit(report));
    if (archive) await write(join(args.reportDir, 'traffic.har'), archive.toHar());
  }
  if (args.html !== undefined && report.outcome !== 'error') {
    const { renderHtmlReport } = await import('../report/html.js');
    await write(args.html, renderHtmlReport(report));
  }
  if (args.writeBaseline !== undefined && report.outcome !== 'error') await write(args.writeBaseline, writeBaseline(report, strict));
  for (const file of written) output.line(output.colour.dim(`wrote ${file}`));
}
