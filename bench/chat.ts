/**
 * The chat page's figures (`check-endpoint chat`, issue 53), part of npm run bench; alone:
 * `npm run build && node --import tsx bench/chat.ts`.
 *
 * (j) How soon the page answers: from spawning `check-endpoint chat URL` to the page ready to type
 *     in (the address printed, the whole page fetched, its first conversation opened by the API call
 *     the page's script makes), beside `check-endpoint --version`, interleaved, medians.
 * (k) A conversation of 200 turns stays responsive: in headless Chromium (test/chromium.ts), 200
 *     messages typed and sent on the page, each turn's drawing timed in the page: the page script's
 *     own append (its User Timing measure, `check-endpoint chat: turn N drawn`, which ends after it
 *     scrolled the new turn into view, so the browser has styled and laid it out) plus any style
 *     and layout still left to do (forced right after it, in a MutationObserver's callback, before
 *     the browser renders). Turns 191–200 beside turns 2–11 (turn 1 also pays the page's first use
 *     of its code, which would flatter the ratio), medians over fresh pages. The same for the whole
 *     turn as a person feels it: Enter to the turn drawn (the page's request, the server's judging
 *     and drawing, the append).
 */
import { spawn } from 'node:child_process';
import { get, request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentRequest } from '../src/core/request.js';
import { referenceAnswer } from '../src/example-agent/reference-agent.js';
import { serveAgent } from '../src/example-agent/serve-agent.js';
import { launchChromium } from '../test/chromium.js';
// The built package, as its users run it.
import { bundledContract, chatServer } from 'check-endpoint';
import { median, row } from './figures.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'bin/check-endpoint.cjs');

/** The whole body of a GET, as a string. */
function fetchText(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => (response.statusCode === 200 ? resolve(body) : reject(new Error(`GET ${url}: ${response.statusCode}`))));
    }).on('error', reject);
  });
}

/** The page's first API call: a conversation opened, as its script opens one. */
function openConversation(pageUrl: string): Promise<void> {
  const address = new URL(pageUrl);
  const token = address.searchParams.get('token') ?? '';
  return new Promise((resolve, reject) => {
    const sent = request(
      new URL('/api/conversations', address),
      { method: 'POST', headers: { 'x-chat-token': token, 'content-type': 'application/json' } },
      (response) => {
        response.resume();
        response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`the API answered ${response.statusCode}`))));
      },
    );
    sent.on('error', reject);
    sent.end('{}');
  });
}

/** Spawn of `check-endpoint chat URL` to the page ready to type in, in ms; the command is then stopped with q, as a person stops it. */
async function chatPageMs(agentUrl: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, 'chat', agentUrl, '--no-config'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    const pageUrl = await new Promise<string>((resolve, reject) => {
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /The chat page is at (\S+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.on('close', (code) =>
        reject(new Error(`check-endpoint chat exited ${code} before it printed its address: ${err.slice(0, 300)}`)),
      );
    });
    await fetchText(pageUrl);
    await openConversation(pageUrl);
    return performance.now() - started;
  } finally {
    child.stdin.end('q\n');
    const code = await exited;
    if (code !== 0) process.stderr.write(`warning: check-endpoint chat exited ${code}\n`);
  }
}

/** Spawn to exit of one process, in ms. */
function processMs(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } });
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - started));
  });
}

/** (j): the page ready to type in, beside --version, interleaved. */
export async function pageAnswerFigures(agentUrl: string, runs: number): Promise<string[]> {
  await chatPageMs(agentUrl); // the file cache warmed
  const pageMs: number[] = [];
  const versionMs: number[] = [];
  for (let run = 0; run < runs; run++) {
    versionMs.push(await processMs([CLI, '--version']));
    pageMs.push(await chatPageMs(agentUrl));
  }
  const ratio = median(pageMs) / median(versionMs);
  return [
    row(
      '(j) check-endpoint chat URL, spawn to page ready / --version',
      `${median(pageMs).toFixed(0)} / ${median(versionMs).toFixed(0)} ms = ${ratio.toFixed(2)}`,
      '≤ 2',
      ratio <= 2,
    ),
  ];
}

/** Times the page script's appends: the style and layout each leaves to do, forced before the browser renders. */
const INSTRUMENT = `(function () {
  window.benchLayoutMs = [];
  new MutationObserver(function (records) {
    var turn = records.some(function (record) {
      return Array.prototype.some.call(record.addedNodes, function (node) { return node.nodeType === 1 && node.matches('li.row.person'); });
    });
    if (!turn) return;
    var started = performance.now();
    document.documentElement.getBoundingClientRect();
    window.benchLayoutMs.push(performance.now() - started);
  }).observe(document.getElementById('conversations'), { childList: true, subtree: true });
})()`;

const READ = `JSON.stringify({
  drawn: performance.getEntriesByType('measure').filter(function (entry) { return / drawn$/.test(entry.name) && !/sent/.test(entry.name); }).map(function (entry) { return entry.duration; }),
  whole: performance.getEntriesByType('measure').filter(function (entry) { return /sent, answered and drawn$/.test(entry.name); }).map(function (entry) { return entry.duration; }),
  layout: window.benchLayoutMs
})`;

/** What a person says, in turn: the reference agent answers each differently (buttons, a list, a link, a reaction, a plain text). */
const SAID = ['can i get a latte', 'oat milk please', 'i want to book a table', 'what time are you open today?', 'hello there'];

const TURNS = 200;

/** (k): 200 turns on a page, turn 200's drawing beside turn 1's. */
export async function longConversationFigures(agentUrl: string, pages: number): Promise<string[]> {
  const server = await chatServer(agentUrl, { env: {} });
  const browser = await launchChromium();
  const first: number[] = [];
  const last: number[] = [];
  const firstWhole: number[] = [];
  const lastWhole: number[] = [];
  const turnOne: number[] = [];
  try {
    for (let run = 0; run < pages; run++) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      page.setDefaultTimeout(60_000);
      await page.goto(server.url);
      await page.waitForSelector('section.conversation');
      await page.evaluate(INSTRUMENT);
      for (let turn = 1; turn <= TURNS; turn++) {
        await page.locator('#composer-text').fill(`${SAID[(turn - 1) % SAID.length]!} (${turn})`);
        await page.keyboard.press('Enter');
        await page.locator(`.turn-details[data-turn="${turn - 1}"]`).waitFor({ state: 'attached' });
      }
      const timings = JSON.parse(String(await page.evaluate(READ))) as { drawn: number[]; whole: number[]; layout: number[] };
      if (timings.drawn.length !== TURNS || timings.layout.length !== TURNS || timings.whole.length !== TURNS)
        throw new Error(
          `the page timed ${timings.drawn.length} draws, ${timings.layout.length} layouts, ${timings.whole.length} turns of ${TURNS}`,
        );
      const draw = timings.drawn.map((ms, index) => ms + timings.layout[index]!);
      turnOne.push(draw[0]!);
      first.push(median(draw.slice(1, 11)));
      last.push(median(draw.slice(TURNS - 10)));
      firstWhole.push(median(timings.whole.slice(1, 11)));
      lastWhole.push(median(timings.whole.slice(TURNS - 10)));
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const ratio = median(last) / median(first);
  const wholeRatio = median(lastWhole) / median(firstWhole);
  return [
    row(
      `(k) ${TURNS} turns on the page: turn 200 drawn / turn 1 (append + layout)`,
      `${median(last).toFixed(2)} / ${median(first).toFixed(2)} ms = ${ratio.toFixed(2)}`,
      '≤ 1.5',
      ratio <= 1.5,
    ),
    row(
      '    the whole turn, Enter to drawn: turn 200 / turn 1',
      `${median(lastWhole).toFixed(1)} / ${median(firstWhole).toFixed(1)} ms = ${wholeRatio.toFixed(2)}`,
      '≤ 1.5',
      wholeRatio <= 1.5,
    ),
    row('    (turn 1 itself, the page code used the first time)', `${median(turnOne).toFixed(2)} ms`, '', true),
  ];
}

/** Both, against an agent in this process that answers at once. */
export async function chatFigures(runs: number): Promise<string[]> {
  const contract = bundledContract();
  const instant = await serveAgent((asked: AgentRequest) =>
    referenceAnswer(asked, Object.hasOwn(contract.platforms, asked.channel) ? contract.platforms[asked.channel] : undefined),
  );
  try {
    return [
      ...(await pageAnswerFigures(instant.url, runs)),
      ...(await longConversationFigures(instant.url, Math.max(3, Math.ceil(runs / 4)))),
    ];
  } finally {
    await instant.close();
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const runs = Number(process.env.BENCH_RUNS ?? 20);
  const lines = await chatFigures(runs);
  process.stdout.write(
    `check-endpoint benchmark, the chat page · node ${process.version} · ${runs} interleaved runs, medians\n${lines.join('\n')}\n`,
  );
}
