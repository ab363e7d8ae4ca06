/**
 * The common checks' rule ids, on every turn of every case. `silent` is the warning for a typed
 * message that got no reply at all (the contract lists the warning but names no rule for it);
 * `bubbles` the warning for one reply's text past its channel's soft length (contract, "Chat bubbles"). A
 * case's own rules (the quality cases', yours) are declared by the case (its `rules`); every rule's
 * level, contract section and statement are in the contract (`x-rules`).
 */
export const RULES = ['reachable', 'timeout', 'status', 'json', 'schema', 'platform', 'reference', 'silent', 'bubbles'] as const;
export type Rule = (typeof RULES)[number];

/** Any rule id: a common check's, or one a case declares (`auth`, `large-attachment`, `acme/greets-by-name`). */
export type RuleId = Rule | (string & {});

/** A rule id: lower case letters, digits and -, with one / at most (a case of your own may prefix its rules). */
export const RULE_ID = /^[a-z][a-z0-9-]{0,47}(\/[a-z][a-z0-9-]{0,47})?$/;

/** `must`: the contract requires it; `should`: the contract recommends it. As the contract words it. */
export type RuleLevel = 'must' | 'should';

/** What a rule requires, as the contract (`x-rules`) or a case of your own states it. */
export interface RuleFacts {
  level: RuleLevel;
  /** The section of the contract that states it: a URL with an anchor. */
  section: string;
  /** The requirement, in one line. */
  statement: string;
}

/** `error` fails the case; `warning` is reported and fails only under `--strict`. */
export type Severity = 'error' | 'warning';

/**
 * Not a rule: the rule of the one note that says how many findings of an answer were left out (its
 * `leftOut`). It takes no rule of its own, so counting findings by rule stays right.
 */
export const LEFT_OUT = 'left-out';

/** How many findings of each rule were left out of an answer. */
export type LeftOutCounts = Readonly<Record<string, number>>;

/** One problem found in an answer: what, where (a JSON pointer into the answer body) and how to fix it. */
export interface Finding {
  rule: RuleId;
  severity: Severity;
  /** What was expected and what came, in a sentence. */
  message: string;
  /** A JSON pointer into the answer body (`""` is the whole body), such as `/replies/2/buttons/3`. */
  path: string;
  /** How to fix it, or null where the message says all. */
  hint: string | null;
  /** Only on the left-out note (rule `left-out`): how many findings of each rule were left out. */
  leftOut?: LeftOutCounts;
  /** One instance of a cause its case declares: the findings of one rule, severity and cause are one problem. */
  cause?: FindingCause;
  /**
   * On a finding over a platform's count or length (rule `platform`, and the `bubbles` warning's
   * soft length): the limit the check held the part at its pointer to, what it counted, and how
   * many it found. A report reads which part is past it here, never from the message's words.
   */
  limit?: FindingLimit;
}

/**
 * What a limit counts. Of a sequence: `items`, the items of the array at the finding's pointer (a
 * reply's buttons); `rows`, the rows of all of a list's sections together; `sections`, a list's
 * sections. Of a text, in the platform's counting unit (x-platforms `counting`), an SMS's resolved
 * to the text's encoding: `codepoints`, `utf16` (UTF-16 code units), `gsm7-septets` (an extension
 * character such as `{` or `€` taking 2), `ucs2-code-units` (an emoji taking 2). Of data:
 * `utf8-bytes` (a text's UTF-8 encoding), `bytes` (an image's decoded data).
 */
export type LimitCount =
  'items' | 'rows' | 'sections' | 'codepoints' | 'utf16' | 'gsm7-septets' | 'ucs2-code-units' | 'utf8-bytes' | 'bytes';

/** A platform's limit a finding's part is past: `{ key: 'buttons.maxCount', max: 3, counts: 'items', measured: 4 }`. */
export interface FindingLimit {
  /** Which limit: its place in the platform's rules (x-platforms, or a --limits file), `buttons.maxCount`, `text.maxLength`. */
  key: string;
  /** The limit: at most this many are shown (the first `max` items, a text's first `max` units). */
  max: number;
  counts: LimitCount;
  /** How many the part holds, counted so: more than `max`. */
  measured: number;
}

/**
 * A cause a case declares for a family of its findings (quality/malformed's invalid requests
 * accepted as valid, one finding per request): they are one problem in every human output, said
 * once with their count, a few examples and the one fix, while the JSON report keeps each finding.
 */
export interface FindingCause {
  /** The cause, unique within its rule: `accepted-invalid`. */
  id: string;
  /** The problem's message, `{count}` standing for how many of its instances came: `the agent answered status 200 to {count} of 45 invalid requests, accepting them as valid`. */
  summary: string;
  /** This finding's instance, as a noun phrase: `a conversationId that is an integer`. */
  instance: string;
}

export function error(rule: RuleId, path: string, message: string, hint: string | null = null): Finding {
  return { rule, severity: 'error', message, path, hint };
}

export function warning(rule: RuleId, path: string, message: string, hint: string | null = null): Finding {
  return { rule, severity: 'warning', message, path, hint };
}

/** Appends one JSON pointer segment, escaping `~` and `/` as RFC 6901 says. */
export function pointer(base: string, ...segments: (string | number)[]): string {
  let path = base;
  for (const segment of segments) {
    const text = String(segment);
    path += `/${text.includes('~') || text.includes('/') ? text.replace(/~/g, '~0').replace(/\//g, '~1') : text}`;
  }
  return path;
}

/** A JSON pointer into the answer under one reply: `/replies/<index>/...`. */
export function replyPointer(index: number, ...segments: (string | number)[]): string {
  return pointer(`/replies/${index}`, ...segments);
}

const REPLIES_PREFIX = '/replies/';

/** The reply index a finding's pointer names (`/replies/2/...` is 2), or null. */
export function replyIndex(path: string): number | null {
  const start = REPLIES_PREFIX.length;
  if (!path.startsWith(REPLIES_PREFIX)) return null;
  let end = start;
  let index = 0;
  for (let code = path.charCodeAt(end); code >= 48 && code <= 57; code = path.charCodeAt(++end)) index = index * 10 + (code - 48);
  return end > start && (end === path.length || path[end] === '/') ? index : null;
}

/**
 * A short, single-line rendering of a received value for messages. Bounded in time and depth
 * whatever the value: a hostile answer may nest 100,000 levels or hold megabytes of text.
 */
export function excerpt(value: unknown, max = 60): string {
  if (value === undefined) return 'nothing';
  let budget = max * 4;
  const render = (node: unknown, depth: number): string => {
    if (budget <= 0) return '';
    let text: string;
    if (node === null || typeof node === 'number' || typeof node === 'boolean') text = String(node);
    else if (typeof node === 'string') text = quote(node.length > budget ? node.slice(0, budget) : node);
    else if (Array.isArray(node)) {
      if (depth > 8) text = '[…]';
      else {
        budget -= 1;
        const parts: string[] = [];
        for (const item of node.slice(0, 50)) {
          if (budget <= 0) break;
          parts.push(render(item, depth + 1));
        }
        text = `[${parts.join(',')}]`;
      }
    } else if (typeof node === 'object') {
      if (depth > 8) text = '{…}';
      else {
        budget -= 1;
        const parts: string[] = [];
        for (const key of Object.keys(node as object).slice(0, 50)) {
          if (budget <= 0) break;
          parts.push(`${quote(key)}:${render((node as Record<string, unknown>)[key], depth + 1)}`);
        }
        text = `{${parts.join(',')}}`;
      }
    } else text = String(node);
    budget -= text.length;
    return text;
  };
  const rendered = render(value, 0);
  // No more UTF-16 code units than `max`: surely no more characters either, nothing to cut.
  if (rendered.length <= max) return rendered;
  const chars = Array.from(rendered.slice(0, max * 4));
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
}

/** Characters JSON.stringify would escape (and surrogates, which it may). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string as JSON: most need no escape and are only put in quotes, cheaper than JSON.stringify. */
function quote(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** The JSON type name of a value, as people say it. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return Number.isInteger(value) ? 'an integer' : 'a number';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

/** Findings kept per answer (and per turn): a flood of problems gets one line for the rest. */
export const MAX_FINDINGS = 50;

function isLeftOutNote(finding: Finding): boolean {
  return finding.rule === LEFT_OUT;
}

/** Rule ids with a count, the common checks' first in their order, then the others as they came. */
function countedRules(counts: LeftOutCounts): string[] {
  const counted = Object.keys(counts).filter((rule) => (counts[rule] ?? 0) > 0);
  const common: readonly string[] = RULES;
  return [...common.filter((rule) => counted.includes(rule)), ...counted.filter((rule) => !common.includes(rule))];
}

/** The rules a finding stands for: its own, or, for the left-out note, the rules of what it left out. */
export function findingRules(finding: Finding): RuleId[] {
  if (finding.rule !== LEFT_OUT) return [finding.rule];
  return countedRules(finding.leftOut ?? {});
}

/**
 * The note that counts the findings left out of an answer, rule by rule: `120 more findings are
 * left out (schema 117, platform 3)`. An error when any of them is one, so the verdict is the same.
 */
export function leftOutNote(counts: LeftOutCounts, severity: Severity, shown?: number): Finding {
  const rules = countedRules(counts);
  const total = rules.reduce((sum, rule) => sum + counts[rule]!, 0);
  const byRule = rules.map((rule) => `${rule} ${counts[rule]}`).join(', ');
  const above = shown === undefined ? '' : `; the first ${shown} are above`;
  return {
    rule: LEFT_OUT,
    severity,
    message: `${total} more ${total === 1 ? 'finding is' : 'findings are'} left out (${byRule})${above}`,
    path: '',
    hint: 'Fix the ones shown and check again.',
    leftOut: Object.fromEntries(rules.map((rule) => [rule, counts[rule] ?? 0])),
  };
}

/**
 * At most `max` findings: the first ones, and one note, last, that counts the rest by rule. A note
 * already among them (from an earlier cap) is merged into it: an answer has one left-out note at most.
 */
export function capFindings(findings: Finding[], max = MAX_FINDINGS): Finding[] {
  const notes = findings.filter(isLeftOutNote);
  if (notes.length === 0 && findings.length <= max) return findings;
  const real = notes.length === 0 ? findings : findings.filter((finding) => !isLeftOutNote(finding));
  const kept = real.length < max ? real : real.slice(0, max - 1);
  const rest = real.slice(kept.length);
  const counts: Record<string, number> = {};
  for (const note of notes) for (const [rule, count] of Object.entries(note.leftOut ?? {})) counts[rule] = (counts[rule] ?? 0) + count;
  for (const finding of rest) counts[finding.rule] = (counts[finding.rule] ?? 0) + 1;
  const severity: Severity = [...notes, ...rest].some((finding) => finding.severity === 'error') ? 'error' : 'warning';
  return [...kept, leftOutNote(counts, severity, kept.length)];
}
