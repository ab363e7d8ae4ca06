/**
 * The rule ids of the contract; every finding names one. `silent` is the warning for a typed
 * message that got no reply at all (the contract lists the warning but names no rule for it); the
 * last seven belong to the quality cases of --quality.
 */
export const RULES = [
  'reachable',
  'timeout',
  'status',
  'json',
  'schema',
  'platform',
  'reference',
  'silent',
  // The quality cases' own rules (--quality).
  'auth',
  'malformed',
  'forward-compat',
  'concurrency',
  'retry',
  'long-input',
  'latency',
] as const;
export type Rule = (typeof RULES)[number];

/** `error` fails the case; `warning` is reported and fails only under `--strict`. */
export type Severity = 'error' | 'warning';

/** One problem found in an answer: what, where (a JSON pointer into the answer body) and how to fix it. */
export interface Finding {
  rule: Rule;
  severity: Severity;
  /** What was expected and what came, in a sentence. */
  message: string;
  /** A JSON pointer into the answer body (`""` is the whole body), such as `/replies/2/buttons/3`. */
  path: string;
  /** How to fix it, or null where the message says all. */
  hint: string | null;
}

export function error(rule: Rule, path: string, message: string, hint: string | null = null): Finding {
  return { rule, severity: 'error', message, path, hint };
}

export function warning(rule: Rule, path: string, message: string, hint: string | null = null): Finding {
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

/** At most `max` findings: the first ones, and one that counts and names the rules of the rest. */
export function capFindings(findings: Finding[], max = MAX_FINDINGS): Finding[] {
  if (findings.length <= max) return findings;
  const kept = findings.slice(0, max - 1);
  const rest = findings.slice(max - 1);
  const severity: Severity = rest.some((finding) => finding.severity === 'error') ? 'error' : 'warning';
  const rules = [...new Set(rest.map((finding) => finding.rule))];
  const summary = `${rest.length} more findings (${rules.join(', ')}) are left out; the first ${kept.length} are above`;
  return [...kept, { rule: rest[0]!.rule, severity, message: summary, path: '', hint: 'Fix the ones shown and check again.' }];
}
