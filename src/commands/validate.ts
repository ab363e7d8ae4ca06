import { promises as fs } from 'node:fs';
import { formatFinding, replyOf } from '../report/human.js';
import { parseJsonBody } from '../validate/judge-exchange.js';
import { REPORT_FORMAT_VERSION } from '../core/report.js';
import { resolveChannels } from '../run/channels.js';
import { loadContract } from '../contract/load-contract.js';
import { answerValidators } from '../contract/compile-contract.js';
import { UsageError } from '../core/usage-error.js';
import { TOOL_VERSION } from '../core/version.js';
import { platformRulesFor, validateAnswer } from '../validate/validate-answer.js';
import { namedLimitChannels, readLimitsOptions } from '../run/limits-option.js';
import type { ColourFlag, Output } from './output.js';

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
      throw new UsageError('give an answer FILE, or pipe the answer body in: check-endpoint validate - < answer.json');
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_INPUT_BYTES) throw new UsageError(`standard input is larger than ${MAX_INPUT_BYTES} bytes`);
      chunks.push(chunk);
    }
    return { name: 'standard input', body: Buffer.concat(chunks) };
  }
  try {
    return { name: file, body: await fs.readFile(file) };
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `${file}: no such file` : `${file}: cannot read it (${code ?? String(cause)})`);
  }
}

/** `check-endpoint validate [FILE|-]`: validates one answer body offline, for each channel asked. */
export async function runValidateCommand(args: ValidateCommandArgs, output: Output): Promise<number> {
  const contract = await loadContract(args.spec);
  answerValidators(contract); // a contract whose answer schema does not compile stops here, exit 2
  const channels = resolveChannels(args.channel, contract, namedLimitChannels(args.limits));
  const limits = await readLimitsOptions(
    args.limits,
    channels.filter((name) => !Object.hasOwn(contract.platforms, name)),
  );
  const input = await readInput(args.file);
  const parsed = parseJsonBody(input.body);
  if (!parsed.ok) throw new UsageError(`${input.name}: ${parsed.finding.message}`);

  const c = output.colour;
  const results = channels.map((channel) => {
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
  const exitCode = results.every((result) => result.valid) ? 0 : 1;

  for (const result of results) {
    const verdict = result.valid ? c.green('VALID  ') : c.bold(c.red('INVALID'));
    output.line(`${verdict}  ${result.channel}  ${input.name}`);
    if (result.limits === 'none')
      output.line(
        c.bold(
          c.yellow(
            `      WARNING: channel "${result.channel}" has no known display limits: ONLY THE SCHEMA was checked, no length, button, emoji or Markdown check (give --limits ${result.channel}=FILE)`,
          ),
        ),
      );
    for (const finding of result.findings)
      for (const line of formatFinding(finding, c, { reply: replyOf(parsed.value, finding.path) })) output.line(line);
  }
  if (args.personMessageId.length === 0) {
    output.line(
      c.dim("note: references (replyTo, reaction messageId) were not checked: name the person's messages with --person-message-id ID"),
    );
  }
  if (args.json) {
    output.json({
      version: REPORT_FORMAT_VERSION,
      tool: { name: 'check-endpoint', version: TOOL_VERSION },
      spec: { version: contract.version, source: contract.source },
      input: input.name,
      referencesChecked: args.personMessageId.length > 0,
      exitCode,
      results,
    });
  }
  return exitCode;
}
