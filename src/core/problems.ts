/**
 * Distinct problems: the findings of a run grouped by what is wrong, so that each is said once.
 * Two findings are one problem when they have the same rule, severity, pointer shape (the reply
 * and item indexes left out: `/replies/0/text` and `/replies/3/text` are `/replies/*\/text`),
 * message template (quoted values and numbers left out) and hint template; or, when their case
 * declares a cause for them (a finding's `cause`), the same rule, severity and cause: that problem's
 * message is the cause's summary, with its count and the first instances as examples. A problem's id is
 * derived from that key alone, so the same problem has the same id in every run and every output.
 * Linear in the findings: one key and one map lookup each.
 */
import type { Finding, FindingCause, RuleId, Severity } from './findings.js';
import type { ProblemReport, ReportedFinding } from './report.js';

/** What grouping reads of a finding: a report's, or one from the last run's record (which keeps no reply index). */
export type GroupedFinding = Finding & Pick<ReportedFinding, 'turn' | 'problem' | 'play'> & { reply?: number | null };

/** What grouping reads of a case: a report's case, or a recorded one. */
export interface FindingsOfCase {
  id: string;
  channel: string;
  findings: readonly GroupedFinding[];
}

/** `/replies/2/buttons/0` is `/replies/*\/buttons/*`: every index segment of a JSON pointer as `*`. */
export function pointerShape(path: string): string {
  return path.replace(/\/\d+(?=\/|$)/g, '/*');
}

/**
 * A message or hint with what varies from answer to answer taken out: each quoted value (or list
 * of them) as `"…"`, each number as `N`. `the text is 5,000 characters long; WhatsApp shows at most 4,096` and
 * `the text is 4,200 characters long; …` are the same template.
 */
export function template(text: string): string {
  return (
    text
      .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
      // A list of quoted values is one value: `one of "p1"` and `one of "p1", "p2" or "p3"` are alike.
      .replace(/"…"(?:(?:,? (?:or|and) |, )"…")+/g, '"…"')
      .replace(/\d[\d,.]*/g, 'N')
  );
}

function problemKey(finding: Finding): string {
  if (finding.cause) return JSON.stringify([finding.rule, finding.severity, 'cause', finding.cause.id]);
  return JSON.stringify([
    finding.rule,
    finding.severity,
    pointerShape(finding.path),
    template(finding.message),
    finding.hint === null ? null : template(finding.hint),
  ]);
}

/** `schema-3f9a12bc`: the rule as a slug, and 8 hex digits of the key's SHA-256. */
function idOfKey(rule: RuleId, key: string): string {
  const slug = rule.replace(/[^a-z0-9]+/g, '-');
  // node:crypto is loaded here, when a run has a problem, not at start-up: loading it costs a passing
  // check more than judging its answers.
  const { createHash } = process.getBuiltinModule('node:crypto');
  return `${slug}-${createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 8)}`;
}

/** The id of the problem a finding is an instance of: the same for every finding alike but for the varying values. */
export function problemId(finding: Finding): string {
  return idOfKey(finding.rule, problemKey(finding));
}

/** Instances a cause's message names as examples, at the most. */
const EXAMPLES = 3;

/** A cause's message: `the agent answered status 200 to 45 of 45 invalid requests, accepting them as valid (for example: a body that is not JSON; …)`. */
export function causeMessage(cause: FindingCause, instances: readonly string[]): string {
  const examples = instances.slice(0, EXAMPLES).join('; ');
  return `${cause.summary.replace('{count}', String(instances.length))} (${instances.length > EXAMPLES ? 'for example: ' : ''}${examples})`;
}

interface Grouping {
  problem: Omit<ProblemReport, 'number' | 'name'>;
  cause: FindingCause | undefined;
  instances: Set<string>;
  first: number;
  errorCases: number;
  where: Map<string, ProblemReport['where'][number]>;
}

function severityRank(severity: Severity): number {
  return severity === 'error' ? 0 : 1;
}

/**
 * The distinct problems of the cases' findings: errors first, then the problem in most cases
 * first, then the one that came first; numbered from 1 in that order. Each names where it came
 * (each case on each channel, with the turns, from 0), how often, and its first finding as the example.
 */
export function groupProblems(cases: readonly FindingsOfCase[]): ProblemReport[] {
  const groups = new Map<string, Grouping>();
  let order = 0;
  for (const caseReport of cases) {
    for (const finding of caseReport.findings) {
      const id = finding.problem ?? problemId(finding);
      let group = groups.get(id);
      if (!group) {
        group = {
          problem: {
            id,
            rule: finding.rule,
            severity: finding.severity,
            path: finding.path,
            message: finding.message,
            hint: finding.hint,
            findings: 0,
            cases: 0,
            where: [],
            example: exampleOf(caseReport, finding),
          },
          cause: finding.cause,
          instances: new Set(),
          first: order++,
          errorCases: 0,
          where: new Map(),
        };
        groups.set(id, group);
      }
      group.problem.findings++;
      if (finding.cause) group.instances.add(finding.cause.instance);
      if (finding.path !== group.problem.path) group.problem.path = pointerShape(finding.path);
      const whereKey = JSON.stringify([caseReport.channel, caseReport.id]);
      let place = group.where.get(whereKey);
      if (!place) {
        place = { case: caseReport.id, channel: caseReport.channel, turns: [] };
        group.where.set(whereKey, place);
        group.problem.where.push(place);
        group.problem.cases++;
      }
      if (finding.turn !== null && !place.turns.includes(finding.turn)) place.turns.push(finding.turn);
    }
  }
  return withUniqueNames(
    [...groups.values()]
      .sort(
        (a, b) =>
          severityRank(a.problem.severity) - severityRank(b.problem.severity) || b.problem.cases - a.problem.cases || a.first - b.first,
      )
      .map((group, index) => ({ ...group.problem, number: index + 1, ...causeOf(group) })),
  );
}

/** Channels a problem's name lists at the most; more are counted (`on 5 channels`). */
const NAMED_CHANNELS = 3;

/**
 * `platform /replies/0/list/button on whatsapp`: a problem's name, the same in every run that has it
 * in the same places: its rule, its pointer (its shape when it came at several) and the channels it
 * came on, in alphabetical order. The text output's numbers are only its place on the screen.
 */
export function problemName(problem: Pick<ProblemReport, 'rule' | 'path' | 'where'>): string {
  const channels = [...new Set(problem.where.map((place) => place.channel))].sort();
  const on =
    channels.length === 0 ? '' : channels.length > NAMED_CHANNELS ? ` on ${channels.length} channels` : ` on ${channels.join(', ')}`;
  return `${problem.rule} ${problem.path === '' ? '(body)' : problem.path}${on}`;
}

/**
 * Each problem with its name, and its id's digits after it when another problem of the run has the
 * same name (`schema /replies/0 on web #3f9a12bc`). Each name made once, counted once.
 */
function withUniqueNames(problems: readonly Omit<ProblemReport, 'name'>[]): ProblemReport[] {
  const names = problems.map(problemName);
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return problems.map((problem, index) => {
    const name = names[index]!;
    return { ...problem, name: counts.get(name)! > 1 ? `${name} #${problem.id.slice(-8)}` : name };
  });
}

/** A cause's problem says the cause, with its count and examples, and lists its instances. */
function causeOf({ cause, instances }: Grouping): Pick<ProblemReport, 'message' | 'instances'> | undefined {
  if (!cause) return undefined;
  return { message: causeMessage(cause, [...instances]), instances: [...instances] };
}

function exampleOf(caseReport: FindingsOfCase, finding: GroupedFinding): ProblemReport['example'] {
  return {
    case: caseReport.id,
    channel: caseReport.channel,
    turn: finding.turn,
    reply: finding.reply ?? null,
    path: finding.path,
    ...(finding.play !== undefined ? { play: finding.play } : {}),
  };
}
