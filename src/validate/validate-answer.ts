import type { Answer } from '../core/answer.js';
import { type Finding, capFindings } from '../core/findings.js';
import { answerValidators } from '../contract/compile-contract.js';
import type { Contract, PlatformRules } from '../contract/contract.js';
import { bundledContract } from '../contract/load-contract.js';
import { messagePlatformFindings, reactionPlatformFindings, templatePlatformFindings } from './platform-findings.js';
import { referenceFindings } from './references.js';
import { checkSchema } from './check-schema.js';
import { sortByPointer } from './schema-findings.js';
import { uniqueIdFindings } from './unique-ids.js';
import type { StackWhenNeeded } from './answering-stack.js';
import { looksModelWritten } from './prompt-command.js';
import type { AnswerWriter } from './platform-findings.js';

export interface ValidateAnswerOptions {
  /** The channel the answer goes to: one of the contract's platforms, or a custom name. */
  channel: string;
  /**
   * The ids of the person's messages in this conversation so far. When given, every id a reply
   * names must be one of them (rule `reference`); when left out, references are not checked.
   */
  personMessageIds?: readonly string[];
  /** The contract to check against; the bundled one when left out. */
  contract?: Contract;
  /** A custom channel's display rules (a `--limits` file); they override the contract's. */
  limits?: PlatformRules;
}

/** The display rules that apply to a channel, or undefined for a custom channel with none given. */
export function platformRulesFor(channel: string, contract: Contract, limits?: PlatformRules): PlatformRules | undefined {
  return limits ?? (Object.hasOwn(contract.platforms, channel) ? contract.platforms[channel] : undefined);
}

/** The findings on an answer, and the answer itself, typed, when it matches the schema (unique ids included). */
export interface AnswerVerdict {
  findings: Finding[];
  answer: Answer | undefined;
}

/**
 * Validates one answer body offline and returns its findings, ordered by where they are: schema
 * (shape, types, unknown types and properties, unique ids), platform (what the channel shows) and
 * reference (ids the replies name). Pure: no I/O, the same answer gives the same findings.
 */
export function validateAnswer(answer: unknown, options: ValidateAnswerOptions): Finding[] {
  return judgeAnswer(answer, options).findings;
}

/** validateAnswer, with the typed answer when it matches the schema; `stack`: the stack that answered, when told, for its hints. */
export function judgeAnswer(answer: unknown, options: ValidateAnswerOptions, stack?: StackWhenNeeded): AnswerVerdict {
  const contract = options.contract ?? bundledContract();
  const schema = checkSchema(answer, answerValidators(contract), stack);
  const findings = schema.findings;
  const rules = platformRulesFor(options.channel, contract, options.limits);
  const personMessageIds = options.personMessageIds;
  // Who wrote it, for the hints, looked at when one asks: the stack that answered; a model, where any
  // reply's text reads as one's (a model's answer cut into bubbles ends in a short one).
  let modelWritten: boolean | undefined;
  const writer: AnswerWriter = {
    stack: stack ?? (() => undefined),
    modelWritten: () => (modelWritten ??= schema.replies.some((reply) => reply?.type === 'message' && looksModelWritten(reply.text))),
  };
  // Only the replies the schema validated are measured: a broken one has its schema findings, and
  // one that was not checked (past a flood of broken replies) is not assumed to be valid.
  for (let index = 0; index < schema.replies.length; index++) {
    const reply = schema.replies[index];
    switch (reply?.type) {
      case 'message':
        uniqueIdFindings(reply, index, findings);
        if (rules) messagePlatformFindings(reply, index, rules, findings, options.channel, writer);
        if (personMessageIds && reply.replyTo !== undefined) referenceFindings('replyTo', reply.replyTo, index, personMessageIds, findings);
        break;
      case 'reaction':
        if (rules) reactionPlatformFindings(reply, index, rules, findings, options.channel);
        if (personMessageIds) referenceFindings('messageId', reply.messageId, index, personMessageIds, findings);
        break;
      case 'template':
        if (rules) templatePlatformFindings(index, rules, findings, options.channel);
        break;
    }
  }
  const schemaValid = schema.answer !== undefined && !findings.some((finding) => finding.rule === 'schema');
  return {
    findings: capFindings(sortByPointer(findings)),
    answer: schemaValid ? schema.answer : undefined,
  };
}
