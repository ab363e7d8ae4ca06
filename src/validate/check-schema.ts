import type { Answer, Reply } from '../core/answer.js';
import { type Finding, MAX_FINDINGS, capFindings, error, replyIndex } from '../core/findings.js';
import type { AnswerValidators } from '../contract/compile-contract.js';
import { missingPropertyMessage, schemaFindings, sortByPointer } from './schema-findings.js';
import { type NullProperty, nullPropertyFindings, requiredNullHint, withoutNullProperties } from './null-properties.js';
import type { StackWhenNeeded } from './answering-stack.js';

/** What the schema step makes of an answer body. */
export interface SchemaVerdict {
  /** The answer's schema findings (unique ids are checked after, on the replies below). */
  findings: Finding[];
  /** The answer, typed, when it matches the schema as a whole. */
  answer: Answer | undefined;
  /**
   * Each reply the schema validated, at its index in the answer; undefined where a reply is broken,
   * or was not checked at all (after a flood of broken replies). Only these are measured further.
   */
  replies: readonly (Reply | undefined)[];
}

/** Replies described one by one at the most (the last finding says there were more). */
const MAX_EXPLAINED_REPLIES = MAX_FINDINGS - 1;

/**
 * Validates an answer body against the contract's answer schema: its findings, and the replies it
 * validated. `stack`: the stack that answered, when the answer told it, for the hint on nulls.
 */
export function checkSchema(answer: unknown, validators: AnswerValidators, stack?: StackWhenNeeded): SchemaVerdict {
  // Most answers are valid: the first-error check says so at the least cost.
  if (validators.check(answer)) return { findings: [], answer, replies: answer.replies };
  const withoutNulls = withoutNullProperties(answer);
  return withoutNulls ? explainWithoutNulls(withoutNulls.value, withoutNulls.nulls, validators, stack) : explainAnswer(answer, validators);
}

/**
 * The verdict on an answer with null properties: the schema's findings on it without them, and
 * one finding per reply naming them. A required property sent as null is said to be null where
 * the schema says it is missing.
 */
function explainWithoutNulls(
  answer: unknown,
  nulls: readonly NullProperty[],
  validators: AnswerValidators,
  stackWhenNeeded: StackWhenNeeded | undefined,
): SchemaVerdict {
  const verdict: SchemaVerdict = validators.check(answer)
    ? { findings: [], answer: undefined, replies: answer.replies }
    : explainAnswer(answer, validators);
  const isMissing = (finding: Finding, property: NullProperty): boolean =>
    finding.path === property.parent && finding.message === missingPropertyMessage(property.name);
  const stack = stackWhenNeeded?.();
  const findings = verdict.findings.map((finding) => {
    const required = nulls.find((property) => isMissing(finding, property));
    return required
      ? { ...finding, message: `"${required.name}" is null; it is required`, hint: requiredNullHint(required, stack) }
      : finding;
  });
  const leftOut = nulls.filter((property) => !verdict.findings.some((finding) => isMissing(finding, property)));
  return { ...verdict, answer: undefined, findings: capFindings(sortByPointer([...findings, ...nullPropertyFindings(leftOut, stack)])) };
}

/** The reply, typed, when it matches the schema alone (as the one reply of an answer); undefined when not. */
function validatedAlone(reply: unknown, check: AnswerValidators['check']): Reply | undefined {
  const alone = { replies: [reply] };
  return check(alone) ? alone.replies[0] : undefined;
}

/**
 * The verdict on an answer that failed the quick check. Each reply is checked alone, and only the
 * broken ones are validated again with every error, beside the answer's own fields: replies that
 * are fine cost nothing more, and a flood of replies (a hostile answer may hold millions) is not
 * validated whole with every error, which would take minutes and gigabytes. Once more replies are
 * broken than are explained, the rest are not checked at all: neither explained nor measured.
 */
function explainAnswer(answer: unknown, { check, explain, repliesApart }: AnswerValidators): SchemaVerdict {
  const explainWhole = (): Finding[] => (explain(answer) ? [] : schemaFindings(explain.errors ?? [], answer));
  if (typeof answer !== 'object' || answer === null || !('replies' in answer) || !Array.isArray(answer.replies)) {
    return { findings: explainWhole(), answer: undefined, replies: [] };
  }
  const replies: readonly unknown[] = answer.replies;

  const validated: (Reply | undefined)[] = [];
  const broken: number[] = [];
  /** The broken reply found when as many as are explained were found already: the last one checked. */
  let floodEndsAt: number | undefined;
  for (let index = 0; index < replies.length; index++) {
    const reply = validatedAlone(replies[index], check);
    validated.push(reply);
    if (reply !== undefined) continue;
    if (broken.length === MAX_EXPLAINED_REPLIES) {
      floodEndsAt = index;
      break;
    }
    broken.push(index);
  }

  // Explained whole: one reply (it is the broken one, or the envelope is: the answer is its own
  // reduced form); a short list another --spec may judge as a whole (maxItems, prefixItems).
  const findings =
    replies.length === 1 || (!repliesApart && replies.length <= MAX_EXPLAINED_REPLIES)
      ? explainWhole()
      : explainBroken(answer, replies, broken, floodEndsAt, explain, explainWhole);
  // A reply a finding names is not measured as well, even where it matches the schema alone
  // (another --spec's rule over the list may name it).
  for (const finding of findings) {
    const index = replyIndex(finding.path);
    if (index !== null && index < validated.length) validated[index] = undefined;
  }
  return { findings, answer: undefined, replies: validated };
}

/** The findings of the answer with only its broken replies: the envelope's own errors, and each broken reply's. */
function explainBroken(
  answer: object,
  replies: readonly unknown[],
  broken: readonly number[],
  floodEndsAt: number | undefined,
  explain: AnswerValidators['explain'],
  explainWhole: () => Finding[],
): Finding[] {
  if (explain({ ...answer, replies: broken.map((index) => replies[index]) })) {
    // Every reply is fine alone: the rule broken is over the list as a whole (a long list in
    // another --spec), so the whole answer is explained. Its replies are each valid: its errors are few.
    return explainWhole();
  }
  // Each error back at its reply's place in the answer (ajv makes its errors afresh on every call).
  const errors = explain.errors ?? [];
  for (const err of errors) {
    const position = replyIndex(err.instancePath);
    const original = position === null ? undefined : broken[position];
    if (original !== undefined && original !== position) {
      err.instancePath = `/replies/${original}${err.instancePath.slice(`/replies/${position}`.length)}`;
    }
  }
  if (floodEndsAt === undefined) return schemaFindings(errors, answer);
  // Room is kept for the line that says the flood went on.
  const unchecked = floodEndsAt < replies.length - 1 ? `The replies after /replies/${floodEndsAt} were not checked at all. ` : '';
  return [
    ...capFindings(sortByPointer(schemaFindings(errors, answer)), MAX_FINDINGS - 1),
    error(
      'schema',
      '/replies',
      `more than ${MAX_EXPLAINED_REPLIES} replies do not match the schema; the first ${MAX_EXPLAINED_REPLIES} are described, the rest were not checked`,
      `${unchecked}Fix the ones shown and check again.`,
    ),
  ];
}
