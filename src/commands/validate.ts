import { FileReadError, readBoundedBytes } from '../core/bounded-file.js';
import { answerProblems, channelProblemsText, formatAnswerDigest } from '../report/answer-digest.js';
import { parseJsonBody } from '../validate/judge-exchange.js';
import { REPORT_FORMAT_VERSION } from '../core/report.js';
import { resolveChannels } from '../run/channels.js';
import { loadContract } from '../contract/load-contract.js';
import { answerValidators } from '../contract/compile-contract.js';
import { commandName } from '../core/command-name.js';
import { withCommand } from '../core/command-words.js';
import { UsageError } from '../core/usage-error.js';
import { TOOL_VERSION } from '../core/version.js';
import { platformRulesFor, validateAnswer } from '../validate/validate-answer.js';
import { namedLimitChannels, readLimitsOptions } from '../run/limits-option.js';
import type { ColourFlag, Output } from './output.js';
import { reportedErrorMessage } from './error-message.js';
import type { OptionNames } from '../core/option-error.js';
import type { Finding } from '../core/findings.js';
import type { ProblemReport } from '../core/report.js';

export interface ValidateCommandArgs extends ColourFlag {
  file?: string;
  channel: string[];
  personMessageId: string[];
  json: boolean;
  spec?: string;
  limits: string[];
  strict: boolean;
}

const MAX_INPUT_BYTES = 64 * 1024 * 1024;

async function readInput(file: string | undefined): Promise<{ name: string; body: Buffer }> {
  if (file === undefined || file === '-') {
    if (process.stdin.isTTY)
      throw new UsageError(`give an answer FILE, or pipe the answer body in: ${commandName()} validate - < answer.json`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_INPUT_BYTES) throw new UsageError(`standard input is larger than ${MAX_INPUT_BYTES} bytes`);
      chunks.push(chunk);
    }
    return { name: inputName(file), body: Buffer.concat(chunks) };
  }
  try {
    // Bounded as standard input is, and only a regular file (a FIFO would hold the read forever).
    return { name: file, body: readBoundedBytes(file, MAX_INPUT_BYTES) };
  } catch (cause) {
    if (!(cause instanceof FileReadError)) throw cause;
    throw new UsageError(cause.code === 'ENOENT' ? `${file}: no such file` : `cannot read ${file}: ${cause.message}`);
  }
}

/** How the report names the input: the file, or standard input. */
function inputName(file: string | undefined): string {
  return file === undefined || file === '-' ? 'standard input' : file;
}

/** What `validate --json` prints (`$defs/validateReport` of spec/report.schema.json). */
export interface ValidateReport {
  version: typeof REPORT_FORMAT_VERSION;
  tool: { name: 'check-endpoint'; version: string };
  /** The contract validated against; null when it was never loaded (bad flags, a bad --spec). */
  spec: { version: string; source: string } | null;
  input: string;
  referencesChecked: boolean;
  exitCode: 0 | 1 | 2;
  /** Why the input could not be read or checked (exit 2), else null. */
  error: { message: string } | null;
  results: ValidateResult[];
  /** The answer's distinct problems across the channels asked (absent when it could not be checked). */
  problems?: ProblemReport[];
}

interface ValidateResult {
  channel: string;
  limits: 'spec' | 'file' | 'none';
  valid: boolean;
  findings: Finding[];
}

/** The --json document of a validate that could not read or check its input (exit 2). */
export function validateErrorReport(
  file: string | undefined,
  referencesChecked: boolean,
  spec: ValidateReport['spec'],
  message: string,
): ValidateReport {
  return {
    version: REPORT_FORMAT_VERSION,
    tool: { name: 'check-endpoint', version: TOOL_VERSION },
    spec,
    input: inputName(file),
    referencesChecked,
    exitCode: 2,
    error: { message },
    results: [],
  };
}

/**
 * `check-endpoint validate [FILE|-]`: validates one answer body offline, for each channel asked.
 * With --json, one JSON document is printed on every exit: input that cannot be read or checked
 * (a missing or non-UTF-8 file, a bad --limits or --spec file) prints one with `error` set and
 * `exitCode` 2, then its message goes to stderr as ever.
 */
export async function runValidateCommand(args: ValidateCommandArgs, output: Output, names: OptionNames): Promise<number> {
  const loaded: { spec: ValidateReport['spec'] } = { spec: null };
  try {
    return await validate(args, output, loaded);
  } catch (cause) {
    if (args.json) {
      output.json(validateErrorReport(args.file, args.personMessageId.length > 0, loaded.spec, reportedErrorMessage(cause, names)));
    }
    throw cause;
  }
}

async function validate(args: ValidateCommandArgs, output: Output, loaded: { spec: ValidateReport['spec'] }): Promise<number> {
  const contract = await loadContract(args.spec);
  answerValidators(contract); // a contract whose answer schema does not compile stops here, exit 2
  loaded.spec = { version: contract.version, source: contract.source };
  const channels = resolveChannels(args.channel, contract, namedLimitChannels(args.limits));
  const limits = await readLimitsOptions(
    args.limits,
    channels.filter((name) => !Object.hasOwn(contract.platforms, name)),
  );
  const input = await readInput(args.file);
  const parsed = parseJsonBody(input.body);
  if (!parsed.ok) throw new UsageError(`${input.name}: ${parsed.finding.message}`);

  const c = output.colour;
  const rawResults = channels.map((channel): ValidateResult => {
    const rules = platformRulesFor(channel, contract, limits[channel]);
    const findings = validateAnswer(parsed.value, {
      channel,
      contract,
      ...(limits[channel] ? { limits: limits[channel] } : {}),
      ...(args.personMessageId.length ? { personMessageIds: args.personMessageId } : {}),
    });
    const failed = findings.some((finding) => finding.severity === 'error' || args.strict);
    return { channel, limits: limits[channel] ? 'file' : rules ? 'spec' : 'none', valid: !failed, findings };
  });
  const exitCode: 0 | 1 = rawResults.every((result) => result.valid) ? 0 : 1;

  // The digest first, each problem once; then each channel's verdict naming its problems by number.
  // Problems are told apart by the hints as the checks wrote them, then the hints name the command as it was run.
  const command = commandName();
  const problems = answerProblems(rawResults).map((problem) => ({ ...problem, hint: withCommand(problem.hint, command) }));
  const results = rawResults.map((result) => ({
    ...result,
    findings: result.findings.map((finding) => ({ ...finding, hint: withCommand(finding.hint, command) })),
  }));
  const digest = formatAnswerDigest(problems, parsed.value, { input: input.name, channels }, c);
  for (const line of digest) output.line(line);
  if (digest.length) output.line();
  for (const result of results) {
    const verdict = result.valid ? c.green('VALID  ') : c.bold(c.red('INVALID'));
    const named = channelProblemsText(result, problems);
    output.line(`${verdict}  ${result.channel}  ${input.name}${named ? `  ${named}` : ''}`);
    if (result.limits === 'none')
      output.line(
        c.bold(
          c.yellow(
            `      WARNING: channel "${result.channel}" has no known display limits: ONLY THE SCHEMA was checked, no length, button, emoji or Markdown check (give --limits ${result.channel}=FILE)`,
          ),
        ),
      );
  }
  if (args.personMessageId.length === 0) {
    output.line(
      c.dim("note: references (replyTo, reaction messageId) were not checked: name the person's messages with --person-message-id ID"),
    );
  }
  if (args.json) {
    const report: ValidateReport = {
      version: REPORT_FORMAT_VERSION,
      tool: { name: 'check-endpoint', version: TOOL_VERSION },
      spec: loaded.spec,
      input: input.name,
      referencesChecked: args.personMessageId.length > 0,
      exitCode,
      error: null,
      results,
      problems,
    };
    output.json(report);
  }
  return exitCode;
}
