/**
 * npm run bench: the checker's own cost, measured on this machine. Runs are interleaved and the
 * medians reported; speed is never asserted in tests, this prints the figures and which targets hold.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentRequest } from '../src/core/request.js';
import { referenceAnswer } from '../src/example-agent/reference-agent.js';
import { serveAgent } from '../src/example-agent/serve-agent.js';
import { commonHeaders } from '../src/http/sent-headers.js';
// The built package, as its users run it (not the sources through a TypeScript loader).
import { bundledContract } from 'check-endpoint';
import { chatFigures } from './chat.js';
import { median, row } from './figures.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The headers the check sends with every request (no token here), which the bare clients send too: the same requests. */
const CHECK_HEADERS = JSON.stringify(commonHeaders({}).sent);
const CLI = join(ROOT, 'bin/check-endpoint.cjs');
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const contract = bundledContract();
const rulesOf = (channel: string) => (Object.hasOwn(contract.platforms, channel) ? contract.platforms[channel] : undefined);

/** Wall time of one process, from spawn to exit, in ms; and what it wrote on fd 3 (test/peak-memory.cjs: the peak memory). */
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

/** The bundled reference agent, served by the built command in a process of its own. */
async function serveExample(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [CLI, 'serve-example', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening at (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`serve-example exited ${code}`)));
  });
  return { url, stop: () => child.kill() };
}

/**
 * (f)'s target, judged per Node line: at most 1.25 times the client on Node 22 and later, 1.5 on
 * Node 20, whose V8 (11.3) runs the command's per-turn code unoptimized (bench/README.md).
 */
function volumeTarget(): number {
  return Number(process.versions.node.split('.')[0]) >= 22 ? 1.25 : 1.5;
}

/** The requests a HAR of the check holds, by conversation, each one's in the order sent: what the baseline client sends. */
function requestsByConversation(har: string): Map<string, unknown[]> {
  const byConversation = new Map<string, unknown[]>();
  const archive = JSON.parse(readFileSync(har, 'utf8')) as {
    log: { entries: { request: { method: string; postData?: { text: string } } }[] };
  };
  for (const entry of archive.log.entries) {
    if (entry.request.method !== 'POST' || !entry.request.postData) continue;
    const request = JSON.parse(entry.request.postData.text) as { conversationId: string };
    byConversation.set(request.conversationId, [...(byConversation.get(request.conversationId) ?? []), request]);
  }
  return byConversation;
}

/**
 * The check with `args` beside the baseline client sending the same requests (read back from a HAR
 * of the check) at concurrency 8, interleaved `runs` times: the conversations and turns sent, each
 * run's wall times, and the check's peak memory (MiB) in each.
 */
async function besideBaseline(
  url: string,
  args: readonly string[],
  name: string,
  runs: number,
): Promise<{ conversations: number; turns: number; checkMs: number[]; baselineMs: number[]; peaks: number[] }> {
  const har = join(tmp, `${name}.har`);
  await timeProcess([CLI, ...args, '--har', har]); // the requests the check sends, for the baseline
  const byConversation = requestsByConversation(har);
  const requestsFile = join(tmp, `${name}-requests.json`);
  writeFileSync(requestsFile, JSON.stringify([...byConversation.values()]));
  const turns = [...byConversation.values()].reduce((sum, list) => sum + list.length, 0);
  const checkMs: number[] = [];
  const baselineMs: number[] = [];
  const peaks: number[] = [];
  for (let run = 0; run < runs; run++) {
    baselineMs.push((await timeProcess([join(ROOT, 'bench/baseline-client.mjs'), url, requestsFile, '8', CHECK_HEADERS])).ms);
    const measured = await timeProcess(['-r', join(ROOT, 'test/peak-memory.cjs'), CLI, ...args]);
    checkMs.push(measured.ms);
    peaks.push(Number(measured.fd3.trim()) / 1024);
  }
  return { conversations: byConversation.size, turns, checkMs, baselineMs, peaks };
}

/** (f)'s figures against one agent: wall time beside the baseline client, peak memory, the HTML report's size. */
async function volumeFigures(url: string, where: string, full = true): Promise<string[]> {
  const args = [url, '--runs', '20', '--channel', 'all', '--concurrency', '8'];
  const { conversations, turns, checkMs, baselineMs, peaks } = await besideBaseline(url, args, 'volume', Math.max(5, Math.ceil(RUNS / 2)));
  const ratio = median(checkMs) / median(baselineMs);
  const figure = `${median(checkMs).toFixed(0)} / ${median(baselineMs).toFixed(0)} ms = ${ratio.toFixed(2)}`;
  if (!full) return [row(`    the same, the agent inside ${where} (for information)`, figure, '', true)];
  const target = volumeTarget();
  const lines = [
    row(
      `(f) --runs 20 --channel all (${conversations} conversations, ${turns} turns) / baseline`,
      figure,
      `≤ ${target.toFixed(2)}`,
      ratio <= target,
    ),
  ];
  const peak = median(peaks);
  lines.push(row('    peak memory of (f) (maxRSS)', `${peak.toFixed(1)} MiB`, '≤ 150 MiB', peak <= 150));
  const htmlFile = join(tmp, 'volume.html');
  await timeProcess([CLI, ...args, '--html', htmlFile]);
  const htmlMb = statSync(htmlFile).size / 1_000_000;
  lines.push(row('    the HTML report of (f)', `${htmlMb.toFixed(2)} MB`, '≤ 5 MB', htmlMb <= 5));
  return lines;
}

/** (i)'s figures: --explore's 1,000 turns beside the baseline client sending the same requests; its peak memory at 10,000 turns beside 1,000. */
async function exploreFigures(url: string): Promise<string[]> {
  const explore = (turns: number): string[] => [
    url,
    '--case',
    'explore',
    '--explore-turns',
    String(turns),
    '--seed',
    '1',
    '--concurrency',
    '8',
  ];
  const runs = Math.max(3, Math.ceil(RUNS / 4));
  const { conversations, turns, checkMs, baselineMs, peaks: peaks1k } = await besideBaseline(url, explore(1000), 'explore', runs);
  const peaks10k: number[] = [];
  for (let run = 0; run < Math.max(2, Math.ceil(runs / 2)); run++) {
    peaks10k.push(Number((await timeProcess(['-r', join(ROOT, 'test/peak-memory.cjs'), CLI, ...explore(10_000)])).fd3.trim()) / 1024);
  }
  // What the command keeps (its heap after a full collection at exit), beside its peak, which holds garbage V8 had not yet collected.
  const kept = async (turns: number): Promise<number> =>
    Number((await timeProcess(['--expose-gc', '-r', join(ROOT, 'bench/heap-after-gc.cjs'), CLI, ...explore(turns)])).fd3.trim()) / 1024;
  const [kept1k, kept10k] = [await kept(1000), await kept(10_000)];
  const ratio = median(checkMs) / median(baselineMs);
  const memory = median(peaks10k) / median(peaks1k);
  return [
    row(
      `(i) --explore-turns 1000 (${conversations} conversations, ${turns} turns) / baseline`,
      `${median(checkMs).toFixed(0)} / ${median(baselineMs).toFixed(0)} ms = ${ratio.toFixed(2)}`,
      '≤ 1.30',
      ratio <= 1.3,
    ),
    row(
      '    peak memory at 10,000 turns / at 1,000 (maxRSS)',
      `${median(peaks10k).toFixed(1)} / ${median(peaks1k).toFixed(1)} MiB = ${memory.toFixed(2)}`,
      '≤ 1.50',
      memory <= 1.5,
    ),
    row(
      '    heap kept at exit, after a full collection: at 10,000 turns / at 1,000',
      `${kept10k.toFixed(1)} / ${kept1k.toFixed(1)} MiB = ${(kept10k / kept1k).toFixed(2)}`,
      '',
      true,
    ),
  ];
}

/** (g)'s figures: what --scenarios adds to a check, beside a bare client playing the same openings. */
async function scenarioFigures(url: string): Promise<string[]> {
  const folder = join(ROOT, 'fixtures/scenarios/valid');
  const withScenarios = [url, '--case', 'typed', '--scenarios', folder];
  const har = join(tmp, 'scenarios.har');
  await timeProcess([CLI, ...withScenarios, '--har', har]);
  // Each scenario's gaps, from its file; each conversation's requests, from the HAR, in the order sent.
  const { readScenarioFolder } = await import('../src/scenario-files/read-scenario-files.js');
  const gaps = new Map(
    readScenarioFolder(folder, Object.keys(contract.platforms)).checked.flatMap((entry) =>
      entry.scenario ? [[entry.scenario.id, entry.scenario.opening.map((message) => message.afterMs ?? null)] as const] : [],
    ),
  );
  const archive = JSON.parse(readFileSync(har, 'utf8')) as {
    log: { entries: { request: { method: string; postData?: { text: string } } }[] };
  };
  const byConversation = new Map<string, { body: unknown; afterMs: number | null }[]>();
  for (const entry of archive.log.entries) {
    if (entry.request.method !== 'POST' || !entry.request.postData) continue;
    const body = JSON.parse(entry.request.postData.text) as { conversationId: string };
    const id = /\.scenario-([a-z0-9_-]+)\.\d+$/.exec(body.conversationId)?.[1];
    if (id === undefined) continue;
    const turns = byConversation.get(body.conversationId) ?? [];
    turns.push({ body, afterMs: gaps.get(id)?.[turns.length] ?? null });
    byConversation.set(body.conversationId, turns);
  }
  const conversationsFile = join(tmp, 'scenario-conversations.json');
  writeFileSync(conversationsFile, JSON.stringify([...byConversation.values()]));
  const withMs: number[] = [];
  const withoutMs: number[] = [];
  const bareMs: number[] = [];
  for (let run = 0; run < Math.max(5, Math.ceil(RUNS / 2)); run++) {
    bareMs.push((await timeProcess([join(ROOT, 'bench/scenario-client.mjs'), url, conversationsFile, CHECK_HEADERS])).ms);
    withoutMs.push((await timeProcess([CLI, url, '--case', 'typed'])).ms);
    withMs.push((await timeProcess([CLI, ...withScenarios])).ms);
  }
  const added = median(withMs) - median(withoutMs);
  const ratio = added / median(bareMs);
  return [
    row(
      `(g) --scenarios (${byConversation.size} openings): added / bare client`,
      `${added.toFixed(0)} / ${median(bareMs).toFixed(0)} ms = ${ratio.toFixed(2)}`,
      '≤ 1.25',
      ratio <= 1.25,
    ),
    row('    (the check with them / without)', `${median(withMs).toFixed(0)} / ${median(withoutMs).toFixed(0)} ms`, '', true),
  ];
}

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
  // The fixed cases' turns on one channel (the default), as this run sent them; each channel plays the same cases. For (b).
  const turnsPerChannel = conversations.reduce((sum, turns) => sum + turns.length, 0);
  writeFileSync(requestsFile, JSON.stringify(conversations));
  const checkMs: number[] = [];
  const baselineMs: number[] = [];
  const peaks: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    baselineMs.push((await timeProcess([join(ROOT, 'bench/baseline-client.mjs'), instant.url, requestsFile, '8', CHECK_HEADERS])).ms);
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
  const sumOfTurns = turnsPerChannel * Object.keys(contract.platforms).length * 1000; // every turn of every channel of the contract, 1 s each
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

  // (h) an agent whose every answer holds 256 KiB of adversarial text for the patterns run on answers
  // (issue 52, 1: "Body exceeded AAAA…" held a turn for a minute of CPU), beside one whose answers hold
  // 256 KiB of plain text: the same answers but for that text, so the same findings.
  const KIB_256 = 256 * 1024;
  const answerWith = (text: string) => (request: AgentRequest) => ({ ...referenceAnswer(request, rulesOf(request.channel)), x: text });
  const adversarial = await serveAgent(answerWith(`Body exceeded ${'A'.repeat(KIB_256 - 14)}`));
  const plain = await serveAgent(answerWith('The quick brown fox jumps over the lazy dog. '.repeat(KIB_256 / 45)));
  try {
    const adversarialMs: number[] = [];
    const plainMs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      plainMs.push((await timeProcess([CLI, plain.url, '--no-config'])).ms);
      adversarialMs.push((await timeProcess([CLI, adversarial.url, '--no-config'])).ms);
    }
    const ratioH = median(adversarialMs) / median(plainMs);
    lines.push(
      row(
        '(h) 256 KiB adversarial answers / 256 KiB plain ones',
        `${median(adversarialMs).toFixed(0)} / ${median(plainMs).toFixed(0)} ms = ${ratioH.toFixed(2)}`,
        '≤ 1.5',
        ratioH <= 1.5,
      ),
    );
  } finally {
    await Promise.all([adversarial.close(), plain.close()]);
  }

  // (f) at volume: --runs 20 on every channel (its row counts the conversations and turns) against the bundled
  // reference agent in a process of its own (serve-example: compiled, so it answers at once; an
  // agent inside this process would share its event loop with the child processes' pipes), beside
  // the baseline client sending the same requests (read back from a HAR of the check) at the same
  // concurrency. The agent inside this process is measured too, for information.
  const served = await serveExample();
  try {
    const volume = await volumeFigures(served.url, 'its own process');
    lines.push(...volume);
    // (i) --explore against the same agent: generated conversations, only the failing ones kept.
    lines.push(...(await exploreFigures(served.url)));
    lines.push(...(await volumeFigures(instant.url, 'this process', false)));
  } finally {
    served.stop();
  }

  // (g) the team's scenarios (--scenarios): the added time is the scenarios' own gaps (after_ms) and
  // the agent's answers. The check with them, less the same check without, beside a bare client
  // playing the same openings (read back from a HAR of the check) with the same gaps.
  lines.push(...(await scenarioFigures(instant.url)));

  // (j) and (k): the chat page (bench/chat.ts): how soon it answers, beside --version; turn 200 drawn beside turn 1, in Chromium.
  lines.push(...(await chatFigures(RUNS)));

  // (d) in a process of its own: validateAnswer at least 200,000 real answers a second (raw ajv beside it, for information).
  const throughput = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/validate-throughput.ts')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`bench/validate-throughput.ts exited ${code}`))));
  });
  lines.push(throughput.trimEnd());
} finally {
  await Promise.all([instant.close(), slow.close()]);
  rmSync(tmp, { recursive: true, force: true });
}

process.stdout.write(`check-endpoint benchmark · node ${process.version} · ${RUNS} interleaved runs, medians\n${lines.join('\n')}\n`);
