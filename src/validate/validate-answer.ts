import type { Answer, Reply } from '../core/answer.js';
import { type Finding, MAX_FINDINGS, capFindings, error, replyIndex } from '../core/findings.js';
import { type AnswerValidators, answerValidators } from '../contract/compile-contract.js';
import type { Contract, PlatformRules } from '../contract/contract.js';
import { bundledContract } from '../contract/load-contract.js';
import { type UniformRules, uniformRules } from '../platforms/uniform-rules.js';
import { messagePlatformFindings, reactionPlatformFindings, templatePlatformFindings } from './platform-findings.js';
import { referenceFindings } from './references.js';
import { schemaFindings, sortByPointer } from './schema-findings.js';
import { uniqueIdFindings } from './unique-ids.js';

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

/**
 * Validates one answer body offline and returns its findings, ordered by where they are: schema
 * (shape, types, unknown types and properties, unique ids), platform (what the channel shows) and
 * reference (ids the replies name). Pure: no I/O, the same answer gives the same findings.
 */
export function validateAnswer(answer: unknown, options: ValidateAnswerOptions): Finding[] {
  const contract = options.contract ?? bundledContract();
  const validators = answerValidators(contract);
  // Most answers are valid: the first-error check says so at the least cost; a failed one is
  // validated again with every error, to be explained.
  const findings: Finding[] = validators.check(answer) ? [] : explainAnswer(answer, validators);
  const replies = (answer as Partial<Answer> | null)?.replies;
  if (!Array.isArray(replies)) return findings;

  const rules = options.limits ? uniformRules(options.limits) : channelRules(contract, options.channel);
  const personMessageIds = options.personMessageIds;
  // A reply broken in shape has its schema findings; measuring it as well would only guess.
  const brokenReplies = findings.length > 0 ? new Set(findings.map((finding) => replyIndex(finding.path))) : undefined;
  for (let index = 0; index < replies.length; index++) {
    if (brokenReplies?.has(index)) continue;
    const reply = replies[index] as Reply;
    switch (reply.type) {
      case 'message':
        uniqueIdFindings(reply, index, findings);
        if (rules) messagePlatformFindings(reply, index, rules, findings);
        if (personMessageIds && reply.replyTo !== undefined) referenceFindings('replyTo', reply.replyTo, index, personMessageIds, findings);
        break;
      case 'reaction':
        if (rules) reactionPlatformFindings(reply, index, rules, findings);
        if (personMessageIds) referenceFindings('messageId', reply.messageId, index, personMessageIds, findings);
        break;
      case 'template':
        if (rules) templatePlatformFindings(index, rules, findings);
        break;
    }
  }
  return findings.length < 2 ? findings : capFindings(sortByPointer(findings));
}

/** The last contract's channels, each with its display rules made uniform (undefined: a custom channel with none). */
let rulesOfChannels: { contract: Contract; byChannel: Map<string, UniformRules | undefined> } | undefined;
/** Channel names remembered at the most: a caller may name any number of custom channels. */
const REMEMBERED_CHANNELS = 64;

/** A channel's display rules in the contract, made uniform; looked up once per channel, not per answer. */
function channelRules(contract: Contract, channel: string): UniformRules | undefined {
  if (rulesOfChannels?.contract !== contract) rulesOfChannels = { contract, byChannel: new Map() };
  const { byChannel } = rulesOfChannels;
  const known = byChannel.get(channel);
  if (known !== undefined || byChannel.has(channel)) return known;
  const platform = platformRulesFor(channel, contract);
  const rules = platform && uniformRules(platform);
  if (byChannel.size < REMEMBERED_CHANNELS) byChannel.set(channel, rules);
  return rules;
}

/** Replies described one by one at the most (the last finding says there were more). */
const MAX_EXPLAINED_REPLIES = MAX_FINDINGS - 1;

/**
 * The schema findings of an answer that failed the quick check. Only the replies that fail it too
 * are validated again with every error, beside the answer's own fields: replies that are fine cost
 * nothing more, and a flood of replies (a hostile answer may hold millions) is not validated whole
 * with every error, which would take minutes and gigabytes; only the first few broken ones are explained.
 */
function explainAnswer(answer: unknown, { check, explain, repliesApart }: AnswerValidators): Finding[] {
  const replies = (answer as Partial<Answer> | null)?.replies;
  const explainWhole = (): Finding[] => (explain(answer) ? [] : schemaFindings(explain.errors ?? [], answer));
  // Explained whole: an answer without a list of replies; one reply (it is the broken one, or the
  // envelope is: the answer is its own reduced form); a short list another --spec may judge as a
  // whole (maxItems, prefixItems).
  if (!Array.isArray(replies) || replies.length === 1 || (!repliesApart && replies.length <= MAX_EXPLAINED_REPLIES)) {
    return explainWhole();
  }
  const broken: number[] = [];
  let more = false;
  for (let index = 0; index < replies.length && !more; index++) {
    if (check({ replies: [replies[index]] })) continue;
    if (broken.length < MAX_EXPLAINED_REPLIES) broken.push(index);
    else more = true;
  }
  // The answer with only its broken replies: the envelope's own errors, and each broken reply's.
  if (explain({ ...(answer as object), replies: broken.map((index) => replies[index]) })) {
    // Every reply is fine alone: the rule broken is over the list as a whole (a long list in
    // another --spec), so the whole answer is explained. Its replies are each valid: its errors are few.
    return explainWhole();
  }
  // Each error back at its reply's place in the answer (ajv makes its errors afresh on every call).
  const errors = explain.errors ?? [];
  for (const error of errors) {
    const position = replyIndex(error.instancePath);
    const original = position === null ? undefined : broken[position];
    if (original !== undefined && original !== position) {
      error.instancePath = `/replies/${original}${error.instancePath.slice(`/replies/${position}`.length)}`;
    }
  }
  if (!more) return schemaFindings(errors, answer);
  // Room is kept for the line that says the flood went on.
  return [
    ...capFindings(sortByPointer(schemaFindings(errors, answer)), MAX_FINDINGS - 1),
    error(
      'schema',
      '/replies',
      `more than ${MAX_EXPLAINED_REPLIES} replies do not match the schema; the first ${MAX_EXPLAINED_REPLIES} are described, the rest were not checked`,
      'Fix the ones shown and check again.',
    ),
  ];
}
