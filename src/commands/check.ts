import type { Output } from './output.js';
import { type CheckEndpointOptions, DEFAULT_TOKEN_ENV, checkEndpoint, describeRun, planCheck } from '../run/check-endpoint.js';
import { formatCase, formatHeader, formatSummary } from '../report/human.js';
import type { CaseReport } from '../report/report.js';
import { knownChannels } from '../spec/contract.js';
import { loadContract } from '../spec/load-contract.js';
import { responseValidator } from '../spec/compile-contract.js';
import { readLimitsOptions } from './limits-option.js';

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
  responseValidator(contract); // a contract whose answer schema does not compile stops here, exit 2
  const tokenEnv = args.tokenEnv ?? DEFAULT_TOKEN_ENV;
  const channels = args.channel.flatMap((name) => (name === 'all' ? knownChannels(contract) : [name]));
  const custom = channels.filter((name) => !Object.hasOwn(contract.platforms, name));
  const options: CheckEndpointOptions = {
    channels,
    cases: args.case,
    contract,
    limits: await readLimitsOptions(args.limits, custom),
    strict: args.strict,
    insecure: args.insecure,
    ...(args.tokenEnv !== undefined ? { tokenEnv: args.tokenEnv } : {}),
    ...(args.agentTimeout !== undefined ? { agentTimeoutSeconds: args.agentTimeout } : {}),
    ...(args.concurrency !== undefined ? { concurrency: args.concurrency } : {}),
    ...(args.maxBody !== undefined ? { maxBodyBytes: args.maxBody } : {}),
  };
  const plan = planCheck(args.url, options); // throws UsageError before anything is sent
  const c = output.colour;
  const tokenNote = plan.token ? `token: from ${tokenEnv}` : `token: none (${tokenEnv} is not set)`;
  for (const line of formatHeader(describeRun(plan), tokenNote, c)) output.line(line);
  if (plan.insecure) {
    output.line(
      c.bold(
        c.red("WARNING: --insecure: the agent's TLS certificate is NOT verified. Anyone on the path can read the token and the messages."),
      ),
    );
  }
  output.line();
  const report = await checkEndpoint(args.url, {
    ...options,
    onCase: orderedPrinter((caseReport) => {
      for (const line of formatCase(caseReport, c)) output.line(line);
    }),
  });
  if (report.outcome === 'error') output.error(report.error!.message);
  else {
    output.line();
    output.line(formatSummary(report, c));
  }
  if (args.json) output.json(report);
  return report.exitCode;
}
