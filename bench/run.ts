/**
 * npm run bench: the checker's own cost, measured on this machine. Runs are interleaved and the
 * medians reported; speed is never asserted in tests, this prints the figures and which targets hold.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentRequest } from '../src/cases/person-message.js';
import { referenceAnswer } from '../src/example-agent/reference-agent.js';
import { RawResponse, serveAgent } from '../src/example-agent/serve-agent.js';
import { FIXTURE_AGENTS } from '../fixtures/agents/catalogue.js';
// The built package, as its users run it (not the sources through a TypeScript loader).
import { bundledContract, checkEndpoint, validateAnswer } from 'check-endpoint';
import { FIRST_ERROR_OPTIONS, createAjv } from '../src/spec/ajv.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'bin/check-endpoint.cjs');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const contract = bundledContract();
const rulesOf = (channel: string) => (Object.hasOwn(contract.platforms, channel) ? contract.platforms[channel] : undefined);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Wall time of one process, from spawn to exit, in ms; and what it wrote on fd 3 (the RSS wrapper's peak). */
function timeProcess(args: string[]): Promise<{ ms: number; code: number | null; fd3: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let fd3 = '';
    let stderr = '';
    child.stdio[3]!.on('data', (chunk: Buffer) => (fd3 += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) process.stderr.write(`warning: ${args.join(' ')} exited ${code}: ${stderr.slice(0, 300)}\n`);
      resolve({ ms: performance.now() - started, code, fd3 });
    });
  });
}

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

const row = (what: string, figure: string, target: string, holds: boolean) =>
  `${what.padEnd(58)} ${figure.padStart(22)}   target ${target.padEnd(10)} ${holds ? 'holds' : 'MISSED'}`;
const lines: string[] = [];

// The agents: one that answers at once, one that takes 1 s a turn. Every request is recorded.
const recorded = new Map<string, AgentRequest[]>();
const instant = await serveAgent((request) => {
  const turns = recorded.get(request.conversationId) ?? [];
  turns.push(request);
  recorded.set(request.conversationId, turns);
  return referenceAnswer(request, rulesOf(request.channel));
});
const slow = await serveAgent(async (request) => {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return referenceAnswer(request, rulesOf(request.channel));
});
const tmp = mkdtempSync(join(tmpdir(), 'check-endpoint-bench-'));

try {
  // (a) and (e): the whole command against the instant agent, beside the node:http baseline.
  await timeProcess([CLI, instant.url]); // warm the file cache; also records the requests
  const requestsFile = join(tmp, 'requests.json');
  const conversations = [...recorded.values()];
  writeFileSync(requestsFile, JSON.stringify(conversations));
  const checkMs: number[] = [];
  const baselineMs: number[] = [];
  const peaks: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    baselineMs.push((await timeProcess([join(ROOT, 'bench/baseline-client.mjs'), instant.url, requestsFile, '8'])).ms);
    const measured = await timeProcess(['-r', join(ROOT, 'test/peak-memory.cjs'), CLI, instant.url]);
    checkMs.push(measured.ms);
    peaks.push(Number(measured.fd3.trim()) / 1024);
  }
  const ratioA = median(checkMs) / median(baselineMs);
  lines.push(
    row(
      `(a) check-endpoint URL / node:http baseline (${conversations.length} conversations)`,
      `${median(checkMs).toFixed(0)} / ${median(baselineMs).toFixed(0)} ms = ${ratioA.toFixed(2)}`,
      '≤ 1.3',
      ratioA <= 1.3,
    ),
  );
  const peak = median(peaks);
  lines.push(row('(e) peak memory of (a) (maxRSS)', `${peak.toFixed(1)} MiB`, '≤ 80 MiB', peak <= 80));

  // (b) every channel against the 1 s agent, 32 conversations at once.
  const wall: number[] = [];
  for (let run = 0; run < Math.max(3, Math.ceil(RUNS / 3)); run++)
    wall.push((await timeProcess([CLI, slow.url, '--channel', 'all', '--concurrency', '32'])).ms);
  const longest = 2 * 1000; // the longest conversation: two turns of 1 s, one after the other
  const sumOfTurns = 7 * 5 * 1000; // 7 turns on each of 5 channels
  const ratioB = median(wall) / longest;
  lines.push(
    row(
      '(b) --channel all --concurrency 32, 1 s agent: wall / longest',
      `${median(wall).toFixed(0)} / ${longest} ms = ${ratioB.toFixed(2)}`,
      '≤ 1.25',
      ratioB <= 1.25,
    ),
  );
  lines.push(row('    (beside the sum of all turns)', `${median(wall).toFixed(0)} / ${sumOfTurns} ms`, '', true));

  // (c) --version beside node -e 0.
  const versionMs: number[] = [];
  const nodeMs: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    nodeMs.push((await timeProcess(['-e', '0'])).ms);
    versionMs.push((await timeProcess([CLI, '--version'])).ms);
  }
  const ratioC = median(versionMs) / median(nodeMs);
  lines.push(
    row(
      '(c) check-endpoint --version / node -e 0',
      `${median(versionMs).toFixed(0)} / ${median(nodeMs).toFixed(0)} ms = ${ratioC.toFixed(2)}`,
      '≤ 1.3',
      ratioC <= 1.3,
    ),
  );

  // (d) validateAnswer throughput on real answers, beside raw ajv on the same schema.
  const samples = await realAnswers();
  const rawFirstError = createAjv(FIRST_ERROR_OPTIONS).compile(contract.responseSchema);
  const rawAllErrors = createAjv().compile(contract.responseSchema);
  const ours = (sample: Sample) => validateAnswer(sample.answer, sample.options);
  const clean = samples.filter((sample) => ours(sample).length === 0);
  const flawed = samples.filter((sample) => !clean.includes(sample));
  const mixed = compareThroughput(samples, ours, (sample) => rawFirstError(sample.answer));
  lines.push(
    row(
      `(d) validateAnswer, ${samples.length} real answers (${flawed.length} with findings)`,
      `${Math.round(mixed.ours).toLocaleString('en')}/s`,
      '≥ 100,000',
      mixed.ours >= 100_000,
    ),
  );
  lines.push(
    row(
      '    raw ajv (first error) on them; our share of its rate',
      `${Math.round(mixed.theirs).toLocaleString('en')}/s · ${mixed.share.toFixed(2)}`,
      '≥ 0.8',
      mixed.share >= 0.8,
    ),
  );
  const breakdown: [string, Sample[], (answer: unknown) => unknown][] = [
    [`answers without findings only (${clean.length}), beside raw ajv (first error)`, clean, rawFirstError],
    [`answers with findings only (${flawed.length}), beside raw ajv (first error)`, flawed, rawFirstError],
    [`answers with findings only (${flawed.length}), beside raw ajv collecting every error`, flawed, rawAllErrors],
  ];
  for (const [name, set, raw] of breakdown) {
    const figures = compareThroughput(set, ours, (sample) => raw(sample.answer));
    lines.push(`    ${name.padEnd(76)} ${figures.share.toFixed(2)}`);
  }
} finally {
  await Promise.all([instant.close(), slow.close()]);
  rmSync(tmp, { recursive: true, force: true });
}

process.stdout.write(`check-endpoint benchmark · node ${process.version} · ${RUNS} interleaved runs, medians\n${lines.join('\n')}\n`);
