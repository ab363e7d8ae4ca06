/**
 * Benchmark part (d), run by bench/run.ts in a process of its own (no state left by the other
 * parts): validateAnswer's throughput on real answers. The target is absolute: at least 200,000
 * answers a second (a run validates 35 to 150). Raw ajv on the same schema is shown beside it for
 * information only. Prints its lines.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RawResponse, serveAgent } from '../src/example-agent/serve-agent.js';
import { FIXTURE_AGENTS } from '../fixtures/agents/catalogue.js';
// The built package, as its users run it (not the sources through a TypeScript loader).
import { bundledContract, checkEndpoint, validateAnswer } from 'check-endpoint';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { AJV_OPTIONS, ANNOTATION_KEYWORDS, EMOJI_FORMAT, FIRST_ERROR_OPTIONS } from '../src/contract/ajv.js';
import { median, row } from './figures.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const contract = bundledContract();
const lines: string[] = [];

interface Sample {
  answer: unknown;
  options: { channel: string; personMessageIds?: string[] };
}

/**
 * Real answers, as the checker receives them: every answer each fixture agent (the valid ones and
 * the broken ones) gives to a check of every channel, with the ids of the person's messages so far,
 * and the sample answers of fixtures/answers (most of them broken on purpose).
 */
async function realAnswers(): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (const agent of FIXTURE_AGENTS) {
    const personMessageIds = new Map<string, string[]>();
    const server = await serveAgent(async (request, raw) => {
      const ids = [...(personMessageIds.get(request.conversationId) ?? []), request.messageId];
      personMessageIds.set(request.conversationId, ids);
      const answer = await agent.handler(request, raw);
      // Only a JSON answer is validated; a raw one (a status, HTML) never reaches validateAnswer.
      if (!(answer instanceof RawResponse)) {
        samples.push({ answer: JSON.parse(JSON.stringify(answer)), options: { channel: request.channel, personMessageIds: ids } });
      }
      return answer;
    });
    try {
      await checkEndpoint(server.url, { channels: ['all'], agentTimeoutSeconds: agent.checkOptions?.agentTimeoutSeconds ?? 10 });
    } finally {
      await server.close();
    }
  }
  const manifest = JSON.parse(readFileSync(join(ROOT, 'fixtures/answers/manifest.json'), 'utf8')) as {
    file: string;
    channel: string;
    personMessageIds?: string[];
  }[];
  for (const entry of manifest) {
    const answer = JSON.parse(readFileSync(join(ROOT, 'fixtures/answers', entry.file), 'utf8'));
    samples.push({
      answer,
      options: { channel: entry.channel, ...(entry.personMessageIds && { personMessageIds: entry.personMessageIds }) },
    });
  }
  return samples;
}

/** Answers per second of `call` over the set, for about `ms` milliseconds. */
function throughput(set: readonly Sample[], call: (sample: Sample) => unknown, ms: number): number {
  let count = 0;
  const started = performance.now();
  while (performance.now() - started < ms) {
    for (const sample of set) call(sample);
    count += set.length;
  }
  return count / ((performance.now() - started) / 1000);
}

/**
 * Ours beside theirs in 60 pairs of short turns, one right after the other, after a warm-up: the
 * machine's speed drifts by more than the difference measured, and a pair sees the same machine.
 * The share is the median of the pairs' shares; the throughputs are medians too.
 */
function compareThroughput(
  set: readonly Sample[],
  ours: (sample: Sample) => unknown,
  theirs: (sample: Sample) => unknown,
): { ours: number; theirs: number; share: number } {
  // Long enough for V8 to optimize both: throughput is the steady state, not the first calls.
  for (let round = 0; round < 3; round++) {
    throughput(set, theirs, 500);
    throughput(set, ours, 500);
  }
  const oursFigures: number[] = [];
  const theirsFigures: number[] = [];
  const shares: number[] = [];
  for (let pair = 0; pair < 60; pair++) {
    const theirsNow = throughput(set, theirs, 15);
    const oursNow = throughput(set, ours, 15);
    theirsFigures.push(theirsNow);
    oursFigures.push(oursNow);
    shares.push(oursNow / theirsNow);
  }
  return { ours: median(oursFigures), theirs: median(theirsFigures), share: median(shares) };
}

const samples = await realAnswers();
/**
 * Raw ajv, as anyone would set it up for this schema: ajv-formats for `uri`, and the schema's own
 * `emoji` format (which has no standard implementation: the checker's). None of the checker's
 * own speed-ups (such as its quicker `uri`) are lent to it.
 */
function rawAjv(options: Record<string, unknown>): Ajv2020 {
  const ajv = new Ajv2020({ ...AJV_OPTIONS, ...options });
  addFormats.default(ajv);
  ajv.addFormat('emoji', EMOJI_FORMAT);
  ajv.addVocabulary([...ANNOTATION_KEYWORDS]);
  return ajv;
}
const rawFirstError = rawAjv(FIRST_ERROR_OPTIONS).compile(contract.responseSchema);
const rawAllErrors = rawAjv({}).compile(contract.responseSchema);
const ours = (sample: Sample) => validateAnswer(sample.answer, sample.options);
const clean = samples.filter((sample) => ours(sample).length === 0);
const flawed = samples.filter((sample) => !clean.includes(sample));
const mixed = compareThroughput(samples, ours, (sample) => rawFirstError(sample.answer));
lines.push(
  row(
    `(d) validateAnswer, ${samples.length} real answers (${flawed.length} with findings)`,
    `${Math.round(mixed.ours).toLocaleString('en')}/s`,
    '≥ 200,000',
    mixed.ours >= 200_000,
  ),
);
/** An informational line: no target. */
const info = (what: string, figure: string) => `    ${what.padEnd(60)} ${figure.padStart(30)}`;
const perSecond = (figure: number) => `${Math.round(figure).toLocaleString('en')}/s`;
lines.push(info('raw ajv (first error) on them: its rate · our share of it', `${perSecond(mixed.theirs)} · ${mixed.share.toFixed(2)}`));
const breakdown: [string, Sample[], (answer: unknown) => unknown][] = [
  [`answers without findings (${clean.length}): ours · raw ajv (first error)`, clean, rawFirstError],
  [`answers with findings (${flawed.length}): ours · raw ajv (first error)`, flawed, rawFirstError],
  [`answers with findings (${flawed.length}): ours · raw ajv (every error)`, flawed, rawAllErrors],
];
for (const [name, set, raw] of breakdown) {
  const figures = compareThroughput(set, ours, (sample) => raw(sample.answer));
  lines.push(info(name, `${perSecond(figures.ours)} · ${perSecond(figures.theirs)}`));
}

process.stdout.write(`${lines.join('\n')}\n`);
