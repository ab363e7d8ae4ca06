/**
 * `check-endpoint chat` and the library's chatServer: the page's server refuses what does not come
 * from its page, keeps every secret off the page, judges each turn as the check does, writes
 * scenarios `scenarios --lint` accepts; and the page itself, in real Chromium, by mouse and by
 * keyboard alone, with axe-core finding nothing.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { chatAgent } from '../fixtures/agents/chat-agent.js';
import { type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { type ChatServer, chatServer } from '../src/chat/chat-server.js';
import { checkEndpoint } from '../src/run/check-endpoint.js';
import { contentSecurityPolicy } from '../src/report/html/policy.js';
import { launchChromium } from './chromium.js';
import { describeViolations, runAxe } from './axe.js';
import { runCli } from './helpers.js';
import { referenceBody, startRawServer, writeAnswer } from './raw-http-server.js';

const TOKEN = 'chat-test-token-4f1d0c9e7b';
const API_KEY = 'chat-api-key-91b2e7aa03';
const ENV = { FLOW_FRAMEWORK_AGENT_TOKEN: TOKEN, CHAT_API_KEY: API_KEY };

let agent: RunningAgent;
let chat: ChatServer;
let folder: string;

function pageToken(server: ChatServer): string {
  return new URL(server.url).searchParams.get('token')!;
}

/** One raw request to the chat server, any Host and headers: node:http, as a browser on another site or a rebound name would send it. */
function raw(
  server: ChatServer,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const { port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers ?? {} },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/** A call of the page's API, as the page makes it. */
async function api(
  server: ChatServer,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown>; text: string }> {
  const response = await fetch(`${server.origin}${path}`, {
    method: body === undefined && path.endsWith('/agent') ? 'GET' : 'POST',
    headers: { 'x-chat-token': pageToken(server), 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, json: JSON.parse(text) as Record<string, unknown>, text };
}

async function conversation(server: ChatServer, channel?: string): Promise<string> {
  const opened = await api(server, '/api/conversations', channel === undefined ? {} : { channel });
  assert.equal(opened.status, 200, opened.text);
  return String(opened.json.key);
}

before(async () => {
  folder = mkdtempSync(join(tmpdir(), 'check-endpoint-chat-'));
  agent = await serveAgent(chatAgent);
  chat = await chatServer(agent.url, {
    env: ENV,
    secretHeaders: { 'x-api-key': 'CHAT_API_KEY' },
    agentTimeoutSeconds: 1,
    scenarioFolder: join(folder, 'tests/scenarios'),
  });
});

after(async () => {
  await chat?.close();
  await agent?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('the chat server lets in only its own page', () => {
  test('the page needs its token; with it, it is served under the report content security policy with connect-src self', async () => {
    const path = new URL(chat.url).pathname + new URL(chat.url).search;
    const host = new URL(chat.origin).host;
    const without = await raw(chat, '/', { headers: { host } });
    assert.equal(without.status, 403);
    const wrong = await raw(chat, '/?token=nope', { headers: { host } });
    assert.equal(wrong.status, 403);
    const page = await raw(chat, path, { headers: { host } });
    assert.equal(page.status, 200);
    const policy = String(page.headers['content-security-policy']);
    assert.match(policy, /default-src 'none'/);
    assert.match(policy, /connect-src 'self'/);
    assert.match(policy, /script-src 'sha256-/);
    assert.doesNotMatch(page.body, /<(script|link|img)[^>]+(src|href)="https?:/, 'the page loads nothing from the network');
  });

  test('an API request without the token, with a wrong one, with a foreign Host or from another origin is refused (403)', async () => {
    const host = new URL(chat.origin).host;
    const token = pageToken(chat);
    const post = (headers: Record<string, string>) =>
      raw(chat, '/api/conversations', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });
    assert.equal((await post({ host, 'x-chat-token': token })).status, 200, 'the same request with everything right is served');
    assert.equal((await post({ host })).status, 403);
    assert.equal((await post({ host, 'x-chat-token': `${token}x` })).status, 403);
    assert.equal((await post({ host: `evil.example:${new URL(chat.origin).port}`, 'x-chat-token': token })).status, 403);
    assert.equal((await post({ host: 'evil.example', 'x-chat-token': token })).status, 403);
    assert.equal((await post({ host, 'x-chat-token': token, origin: 'http://evil.example' })).status, 403);
    assert.equal((await post({ host, 'x-chat-token': token, 'sec-fetch-site': 'cross-site' })).status, 403);
    // A browser's preflight for a cross-origin request carries no token, and gets no CORS header.
    const preflight = await raw(chat, '/api/conversations', {
      method: 'OPTIONS',
      headers: {
        host,
        origin: 'http://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-chat-token',
      },
    });
    assert.equal(preflight.status, 403);
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
  });

  test("the page's requests are read as untrusted input: unknown keys, wrong types and bodies over the limit are refused", async () => {
    const key = await conversation(chat);
    for (const body of [
      { text: 1 },
      { text: 'x', admin: true },
      { tap: { turn: -1, reply: 0, id: 'x' } },
      { file: { sample: '../etc' } },
    ]) {
      const answered = await api(chat, `/api/conversations/${key}/messages`, body);
      assert.equal(answered.status, 400, JSON.stringify(body));
    }
    // Over the limit, said by its content-length or only by its bytes (chunked): a 413 the page can read, not a dropped connection.
    const huge = JSON.stringify({ text: 'x'.repeat(9 * 1024 * 1024) });
    const framings: Record<string, string>[] = [{ 'content-length': String(Buffer.byteLength(huge)) }, { 'transfer-encoding': 'chunked' }];
    for (const framing of framings) {
      const refused = await raw(chat, `/api/conversations/${key}/messages`, {
        method: 'POST',
        headers: { 'x-chat-token': pageToken(chat), 'content-type': 'application/json', ...framing },
        body: huge,
      });
      assert.equal(refused.status, 413, JSON.stringify(framing));
      assert.match(refused.body, /larger than 8 MiB/);
    }
  });

  test('a body refused by its content-length is read to its end before the connection closes: the caller, still sending, is not reset', async () => {
    const { port } = new URL(chat.origin);
    const key = await conversation(chat);
    const bodyBytes = 9 * 1024 * 1024;
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    let answer = '';
    const answered = new Promise<void>((resolve) =>
      socket.on('data', (chunk: Buffer) => {
        answer += chunk.toString('latin1');
        if (answer.includes('larger than 8 MiB')) resolve();
      }),
    );
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const errors: string[] = [];
    socket.on('error', (cause: NodeJS.ErrnoException) => errors.push(cause.code ?? cause.message));
    socket.write(
      `POST /api/conversations/${key}/messages HTTP/1.1\r\nHost: ${new URL(chat.origin).host}\r\nx-chat-token: ${pageToken(chat)}\r\n` +
        `content-type: application/json\r\ncontent-length: ${bodyBytes}\r\n\r\n`,
    );
    // The 413 comes at once, from the content-length alone; the body is still to be sent, a MiB at a time.
    await answered;
    assert.match(answer, /^HTTP\/1\.1 413 /);
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    for (let sent = 0; sent < bodyBytes; sent += chunk.length) {
      await new Promise<void>((resolve) => socket.write(chunk, () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await closed;
    assert.deepEqual(errors, [], 'the whole body went, and the connection was closed, not reset');
  });

  test('messages waiting for answers are bounded: past the tenth at once, the next is refused, saying why', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = await chatServer(
      async (request: Request) => {
        if (request.method === 'POST') await held;
        return request.method === 'POST' ? Response.json({ replies: [] }) : new Response(null, { status: 204 });
      },
      { env: {}, scenarioFolder: join(folder, 'slow') },
    );
    try {
      const key = await conversation(slow);
      const waiting = Array.from({ length: 10 }, (_, index) => api(slow, `/api/conversations/${key}/messages`, { text: `m${index}` }));
      // The eleventh is answered at once, while the ten still wait.
      const eleventh = await api(slow, `/api/conversations/${key}/messages`, { text: 'one more' });
      assert.match(String(eleventh.json.refused), /10 messages are waiting for the agent's answers already/);
      release();
      for (const sent of await Promise.all(waiting)) assert.equal(sent.status, 200, sent.text);
    } finally {
      release();
      await slow.close();
    }
  });
});

describe('what the chat server sends', () => {
  test('no secret reaches the page: the token and --header-env values, echoed by a hostile agent, are redacted everywhere', async () => {
    const key = await conversation(chat);
    const sent = await api(chat, `/api/conversations/${key}/messages`, { text: 'secret?' });
    assert.equal(sent.status, 200);
    assert.match(sent.text, /redacted/, 'the echo is there, redacted');
    const page = await fetch(chat.url).then((response) => response.text());
    const download = await fetch(`${chat.origin}/api/conversations/${key}/turns/0/request.json?token=${pageToken(chat)}`).then((r) =>
      r.text(),
    );
    for (const [name, text] of [
      ['the turn', sent.text],
      ['the page', page],
      ['the download', download],
    ] as const) {
      assert.ok(!text.includes(TOKEN), `${name} holds the token`);
      assert.ok(!text.includes(API_KEY), `${name} holds the x-api-key value`);
    }
    assert.match(sent.text, /authorization: Bearer &lt;redacted&gt;/, 'the request headers are shown, the token redacted');
    assert.match(sent.text, /FLOW_FRAMEWORK_AGENT_TOKEN/, 'the curl line names the variable');
  });

  test("a turn's pane shows the headers its request was sent with: a body over 1 MiB waits for 100 Continue, and says so", async () => {
    const key = await conversation(chat);
    const large = Buffer.alloc(2 * 1024 * 1024, 7).toString('base64');
    const file = await api(chat, `/api/conversations/${key}/messages`, {
      file: { name: 'large.pdf', mime: 'application/pdf', data: large },
    });
    assert.equal(file.status, 200, file.text.slice(0, 300));
    assert.match(file.text, /expect: 100-continue/);
    assert.ok(Number(/content-length: (\d+)/.exec(file.text)?.[1]) > 1024 * 1024, "the length shown is the large body's");
    const small = await api(chat, `/api/conversations/${key}/messages`, { text: 'and a small one' });
    assert.equal(small.status, 200, small.text);
    assert.doesNotMatch(small.text, /expect:/);
    assert.match(small.text, /content-type: application\/json/);
  });

  test('an agent the page cannot begin with is said as the check says it: one that drops HEAD is told to answer HEAD', async () => {
    const server = await startRawServer((request, socket) => {
      if (request.method === 'HEAD') return void socket.end();
      writeAnswer(socket, request, referenceBody(request));
    });
    try {
      await assert.rejects(chatServer(server.url, { env: {}, waitSeconds: 1 }), (cause: Error) => {
        assert.match(
          cause.message,
          /closed the connection on HEAD without answering after waiting 1 s; it must answer HEAD with any status/,
        );
        return true;
      });
    } finally {
      await server.close();
    }
  });

  test('a secret that is a common word (the token "message") leaves the page, its script and its API whole, and still never reaches them', async () => {
    const plain = await chatServer(agent.url, { env: { FLOW_FRAMEWORK_AGENT_TOKEN: 'message' }, scenarioFolder: join(folder, 'plain') });
    try {
      const page = await fetch(plain.url).then((response) => response.text());
      assert.ok(!page.includes('<redacted>'), 'the page as written: none of its words taken for the secret');
      const key = await conversation(plain);
      const sent = await api(plain, `/api/conversations/${key}/messages`, { text: 'hello' });
      assert.equal(sent.status, 200, sent.text);
      assert.ok(!sent.text.includes('"<redacted>"'), 'no key of the answer rewritten');
      assert.ok('html' in sent.json || Object.keys(sent.json).length > 0, sent.text);
      assert.match(sent.text, /authorization: Bearer &lt;redacted&gt;/, 'the header is still shown redacted');
      const download = await fetch(`${plain.origin}/api/conversations/${key}/turns/0/request.json?token=${pageToken(plain)}`).then(
        (response) => response.text(),
      );
      assert.equal(
        (JSON.parse(download) as { message: { text: string } }).message.text,
        'hello',
        'the request as sent, its "message" key whole',
      );
    } finally {
      await plain.close();
    }
  });

  test('every figure of a turn is what --json reports for the same answer', async () => {
    const text = 'hi, what time are you open today?';
    const key = await conversation(chat);
    const turn = await api(chat, `/api/conversations/${key}/messages`, { text });
    const report = await checkEndpoint(agent.url, { env: ENV, secretHeaders: { 'x-api-key': 'CHAT_API_KEY' }, cases: ['typed'] });
    const checked = report.cases[0]!.turns[0]!;
    assert.equal(checked.request.message.text, text, 'the check sent the same message');
    const figures = turn.json.figures as {
      status: number;
      replies: number;
      findings: { rule: string; severity: string; path: string; message: string }[];
    };
    assert.equal(figures.status, checked.status);
    assert.ok(figures.findings.length > 0, 'the answer has findings to compare');
    assert.deepEqual(
      figures.findings,
      checked.findings.map(({ rule, severity, path, message }) => ({ rule, severity, path, message })),
    );
    // What the page draws names the same rules at the same pointers.
    const drawn = [...String(turn.json.html).matchAll(/data-rule="([^"]+)" data-pointer="([^"]*)"/g)].map(
      (match) => `${match[1]} ${match[2]}`,
    );
    assert.deepEqual(drawn.sort(), checked.findings.map((finding) => `${finding.rule} ${finding.path}`).sort());
  });

  test('a conversation of typed messages (a double text among them) is saved as a scenario that scenarios --lint accepts', async () => {
    const key = await conversation(chat);
    // The second is sent while the first is unanswered (the agent takes 300 ms on "latte"): after_ms.
    const first = api(chat, `/api/conversations/${key}/messages`, { text: 'can i get a large latte' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = api(chat, `/api/conversations/${key}/messages`, { text: 'oat milk actually' });
    assert.equal((await first).status, 200);
    assert.equal((await second).status, 200);
    const saved = await api(chat, `/api/conversations/${key}/scenario`, { id: 'latte-order', save: true });
    assert.equal(saved.json.refused, undefined, saved.text);
    const file = join(folder, 'tests/scenarios/latte-order.yaml');
    const yaml = readFileSync(file, 'utf8');
    assert.match(yaml, /say: "can i get a large latte"\n {2}- say: "oat milk actually"\n {4}after_ms: \d+/);
    const lint = await runCli(['scenarios', '--lint', join(folder, 'tests/scenarios')]);
    assert.equal(lint.code, 0, lint.stdout + lint.stderr);
    const again = await api(chat, `/api/conversations/${key}/scenario`, { id: 'latte-order', save: true });
    assert.match(String(again.json.refused), /there already/);
  });

  test('a conversation with a tap or a file is refused as a scenario, saying why', async () => {
    const key = await conversation(chat);
    await api(chat, `/api/conversations/${key}/messages`, { text: 'menu please' });
    await api(chat, `/api/conversations/${key}/messages`, { text: '', tap: { turn: 0, reply: 0, id: 'Coffee' } });
    const tapped = await api(chat, `/api/conversations/${key}/scenario`, { id: 'menu', save: true });
    assert.match(String(tapped.json.refused), /message 2 is a tap/);
    const other = await conversation(chat);
    await api(chat, `/api/conversations/${other}/messages`, { text: 'look', file: { sample: 'photo' } });
    const filed = await api(chat, `/api/conversations/${other}/scenario`, { id: 'photo', save: false });
    assert.match(String(filed.json.refused), /sends a file/);
  });

  test('the library serves an in-process handler too (a fetch handler)', async () => {
    const server = await chatServer(
      (request: Request) => Response.json({ replies: [{ type: 'message', text: `echo ${request.method}` }] }),
      {
        channels: ['telegram'],
      },
    );
    try {
      const opened = await api(server, '/api/conversations', {});
      assert.equal(opened.json.channel, 'telegram');
      const turn = await api(server, `/api/conversations/${String(opened.json.key)}/messages`, { text: 'hello' });
      assert.match(String(turn.json.html), /echo POST/);
      assert.match(String(turn.json.html), /No curl line: the agent is a handler in this process/);
    } finally {
      await server.close();
    }
  });

  test('with an agent process, the page has its pane: its lines (redacted as given) and a restart', async () => {
    const lines = ['listening on 8080'];
    let restarts = 0;
    const server = await chatServer(agent.url, {
      env: {},
      agent: { lines: () => lines, state: () => `running, restarted ${restarts} times`, restart: async () => void restarts++ },
    });
    try {
      const page = await fetch(server.url).then((response) => response.text());
      assert.match(page, /data-agent="yes"/);
      assert.match(page, /Restart the agent/);
      const shown = await api(server, '/api/agent');
      assert.deepEqual(shown.json.lines, lines);
      const restarted = await api(server, '/api/agent/restart', {});
      assert.equal(restarts, 1);
      assert.equal(restarted.json.state, 'running, restarted 1 times');
      assert.equal(restarted.json.answers, true, 'the restart answers once the agent answers again');
    } finally {
      await server.close();
    }
    const none = await api(chat, '/api/agent');
    assert.equal(none.status, 404, 'without an agent process there is no pane to feed');
  });

  test('check-endpoint chat prints its address and stops on q, exit 0; a bad flag is exit 2 with no stack', async () => {
    const ran = await runCli(['chat', agent.url, '--channel', 'sms'], {
      input: 'q\n',
      env: { FLOW_FRAMEWORK_AGENT_TOKEN: TOKEN },
      timeoutMs: 60_000,
    });
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /The chat page is at http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}/);
    assert.ok(!ran.stdout.includes(TOKEN) && !ran.stderr.includes(TOKEN), 'the agent token is never printed');
    const bad = await runCli(['chat', agent.url, '--channel', 'whatsap']);
    assert.equal(bad.code, 2);
    assert.doesNotMatch(bad.stderr, /\n\s+at /, 'no stack trace');
  });
});

describe('the chat page in Chromium', () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  async function open(): Promise<{ page: Page; errors: string[]; requests: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.setDefaultTimeout(0);
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(chat.url);
    await page.waitForSelector('section.conversation');
    return { page, errors, requests };
  }

  /**
   * Until `expression` holds in the page. Page.waitForFunction would poll it with eval() in the page, which the page's
   * content security policy refuses (no 'unsafe-eval'); page.evaluate runs it from outside the page, as DevTools does.
   */
  async function until(page: Page, expression: string): Promise<void> {
    const deadline = Date.now() + 30_000;
    while ((await page.evaluate(expression)) !== true) {
      assert.ok(Date.now() < deadline, `in 30 s, this never held on the page: ${expression}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /**
   * The person's own picture in their bubble (person row `index` of those `rows` selects): drawn from a blob: URL the page
   * made, with its alt text, and decoded, `width` pixels wide (a picture the policy refused is complete with a width of 0).
   */
  async function drawnPicture(page: Page, rows: string, index: number, width: number, alt: string): Promise<void> {
    const picture = page.locator(rows).nth(index).locator('img.own-picture');
    await picture.waitFor();
    assert.equal(await picture.getAttribute('alt'), alt);
    assert.match(String(await picture.getAttribute('src')), /^blob:http:\/\/127\.0\.0\.1:\d+\//);
    const loaded = `(function () {
      var image = document.querySelectorAll(${JSON.stringify(rows)})[${index}].querySelector('img.own-picture');
      return image.complete ? String(image.naturalWidth) : '';
    })()`;
    await until(page, `${loaded} !== ''`);
    assert.equal(await page.evaluate(loaded), String(width));
  }

  /** Types into the message box and presses Enter; waits until turn `turn` (from 1) is drawn. */
  async function say(page: Page, text: string, turn: number): Promise<void> {
    await page.locator('#composer-text').fill(text);
    await page.keyboard.press('Enter');
    await turnDrawn(page, turn);
  }

  async function turnDrawn(page: Page, turn: number, conversation = 'section.conversation >> nth=-1'): Promise<void> {
    await page
      .locator(conversation)
      .locator(`.turn-details[data-turn="${turn - 1}"]`)
      .waitFor();
  }

  test('typing, a double text, taps of the latest and an earlier answer, a list row, the photo, a quote, faults in the check words, a platform switch, and axe', async () => {
    const { page, errors, requests } = await open();
    const phone = page.locator('section.conversation').last();
    await page.locator('#composer-text').click();
    await say(page, 'menu please', 1);
    assert.equal(await phone.locator('button.tap').count(), 4, 'two buttons and two list rows are tappable');
    // Shift+Enter makes a line break, not a message.
    await page.locator('#composer-text').fill('two');
    await page.keyboard.press('Shift+Enter');
    assert.equal(await page.locator('#composer-text').inputValue(), 'two\n');
    // A double text: the second sent before the first is answered; both drawn, in order.
    await page.locator('#composer-text').fill('can i get a large latte');
    await page.keyboard.press('Enter');
    await page.locator('#composer-text').fill('oat milk actually');
    await page.keyboard.press('Enter');
    await turnDrawn(page, 3);
    const texts = await phone.locator('li.row.person .text-body').allTextContents();
    assert.deepEqual(texts.slice(1, 3), ['can i get a large latte', 'oat milk actually']);
    // A tap of the latest answer's button is impossible here (a plain text): tap the first answer's (an earlier one), then its list row.
    await phone.locator('button.tap[data-turn="0"][data-choice="Tea"]').click();
    await turnDrawn(page, 4);
    assert.match(await phone.locator('li.row.person').nth(3).innerText(), /Tapped\s+Tea/i);
    await phone.locator('button.tap[data-turn="3"][data-choice="Menu"]').click();
    await turnDrawn(page, 5);
    await phone.locator('button.tap[data-turn="0"][data-choice="latte"]').click();
    await turnDrawn(page, 6);
    assert.match(await phone.locator('li.row.person').nth(5).innerText(), /Tapped\s+Latte/i);
    assert.match(await phone.locator('li.row.agent').last().innerText(), /You chose Latte/);
    // The photo, with a caption.
    await page.locator('#attach').selectOption('photo');
    await say(page, 'this one', 7);
    // Named with its size, as the report draws a file it keeps by size and digest; and drawn, from the bytes the page
    // fetched of its own server as a blob: URL (the 1280×960 JPEG decoded: the chat page's policy lets blob: images in).
    assert.match(await phone.locator('li.row.person').nth(6).innerText(), /image photo\.jpg \(image\/jpeg, 217,942 bytes\)/);
    await drawnPicture(
      page,
      'section.conversation[data-channel="whatsapp"] li.row.person',
      6,
      1280,
      'Your photo (the check’s sample photo)',
    );
    assert.match(await phone.locator('li.row.agent').last().innerText(), /Got your photo/);
    // A quote of the agent's reply to message 1.
    await phone.locator('button.quote-this[data-quote-from="agent"][data-turn="0"]').first().click();
    assert.match(await page.locator('#quoting-text').innerText(), /Quoting the agent/);
    await say(page, 'this please', 8);
    assert.equal(await phone.locator('li.row.person').nth(7).locator('blockquote.quote').count(), 1);
    // A reply WhatsApp would not send: struck, its finding and fix beside it.
    await say(page, 'too many buttons', 9);
    const refused = phone.locator('li.row.agent.not-sent').last();
    assert.equal(await refused.locator('.finding[data-rule="platform"]').count(), 1);
    assert.match(await refused.innerText(), /Fix:/);
    // A 500 and a timeout, in the check's words.
    await say(page, 'crash', 10);
    assert.match(await phone.locator('.turn-chip').filter({ hasText: 'Turn 10' }).innerText(), /HTTP 500/);
    assert.match(await phone.locator('li.row.system.refused').last().innerText(), /expected status 200, got 500/);
    await say(page, 'slow', 11);
    assert.match(await phone.locator('.turn-chip').filter({ hasText: 'Turn 11' }).innerText(), /no answer/);
    assert.match(await phone.locator('li.row.system.refused').last().innerText(), /expected a complete answer within 1 s/);
    // A body that is not JSON (an HTML page, status 200), in the check's words: the finding, and the body as it came.
    await say(page, 'not json', 12);
    const notJson = phone.locator('li.row.system.refused').last();
    assert.match(await phone.locator('.turn-chip').filter({ hasText: 'Turn 12' }).innerText(), /HTTP 200/);
    assert.equal(await notJson.locator('.finding[data-rule="json"]').count(), 2, 'the content type and the body each have their finding');
    assert.match(await notJson.innerText(), /expected a JSON body; it does not parse/);
    assert.match(await notJson.innerText(), /expected content-type application\/json, got "text\/html"/);
    assert.match(await notJson.innerText(), /<h1>Bad gateway<\/h1>/);
    // A turn opened: the request and the answer, the reproduce line.
    const details = phone.locator('.turn-details[data-turn="0"]');
    await details.locator('button.turn-open').click();
    assert.equal(await details.locator('button.turn-open').getAttribute('aria-expanded'), 'true');
    assert.match(await details.innerText(), /curl -sS -i -X POST/);
    assert.match(await details.innerText(), /Bearer <redacted>/);

    const axe = await runAxe(page);
    assert.equal(axe.violations.length, 0, describeViolations(axe));

    // Switch platform: the conversation played again on SMS, as a new conversation beside it.
    await page.locator('#channel').selectOption('sms');
    const sms = page.locator('section.conversation[data-channel="sms"]');
    await sms.waitFor();
    await until(page, "/Played again/.test(document.getElementById('status').textContent)");
    assert.ok((await sms.locator('li.row.person').count()) >= 1, 'the conversation was played again on SMS');
    assert.equal(await page.locator('section.conversation[data-channel="whatsapp"]').count(), 1, 'the WhatsApp one stays beside it');

    // Saving it as a scenario is refused: it holds taps and a file.
    await page.locator('#save-scenario').click();
    await page.locator('#scenario-id').fill('menu-walk');
    await page.locator('#scenario-show').click();
    await page.locator('#scenario-result').filter({ hasText: 'Not a scenario' }).waitFor();

    const axeAfter = await runAxe(page);
    assert.equal(axeAfter.violations.length, 0, describeViolations(axeAfter));
    assert.deepEqual(errors, []);
    // Only the chat server was asked, and the page's own blob: URLs read (the person's photo).
    const ownUrl = (url: string) => url.startsWith(`${chat.origin}/`) || url.startsWith(`blob:${chat.origin}/`);
    assert.ok(requests.every(ownUrl), `only the chat server was asked: ${requests.filter((url) => !ownUrl(url)).join(', ')}`);
    await page.close();
  });

  /** Presses `key` until `test` (an expression run in the page) holds, at most `steps` times: whether it came to hold. */
  async function focusBy(page: Page, key: string, test: string, steps = 60): Promise<boolean> {
    for (let step = 0; step < steps; step++) {
      if ((await page.evaluate(test)) === true) return true;
      await page.keyboard.press(key);
    }
    return (await page.evaluate(test)) === true;
  }

  test('keyboard only: the skip link to the box, Enter sends, a scenario saved, a button tapped, the platform switched; two tabs are two conversations', async () => {
    const { page } = await open();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement.className'), 'skip');
    await page.keyboard.press('Enter');
    await until(page, "document.activeElement.id === 'composer-text'");
    await page.keyboard.type('menu');
    await page.keyboard.press('Enter');
    await page.locator('.turn-details[data-turn="0"]').waitFor();
    await page.keyboard.type('two lattes please');
    await page.keyboard.press('Enter');
    await page.locator('.turn-details[data-turn="1"]').waitFor();

    // Saved as a scenario, by keyboard: the button, its id box, Enter; scenarios --lint accepts the file.
    assert.ok(await focusBy(page, 'Shift+Tab', "document.activeElement.id === 'save-scenario'"), 'the save button is reached');
    await page.keyboard.press('Enter');
    await until(page, "document.activeElement.id === 'scenario-id'");
    await page.keyboard.type('keyboard-walk');
    await page.keyboard.press('Enter');
    await page.locator('#scenario-result').filter({ hasText: 'Saved as' }).waitFor();
    const file = join(folder, 'tests/scenarios/keyboard-walk.yaml');
    assert.match(readFileSync(file, 'utf8'), /say: "menu"\n {2}- say: "two lattes please"/);
    const lint = await runCli(['scenarios', '--lint', join(folder, 'tests/scenarios')]);
    assert.equal(lint.code, 0, lint.stdout + lint.stderr);

    // A button tapped: Tab on from the id box into the conversation, Enter.
    assert.ok(await focusBy(page, 'Tab', "document.activeElement.matches('button.tap')"), 'a tap button is reached by the keyboard');
    await page.keyboard.press('Enter');
    await page.locator('.turn-details[data-turn="2"]').waitFor();
    assert.match(await page.locator('li.row.person').nth(2).innerText(), /Tapped/i);

    // The platform switched: the arrows only choose (no conversation played on each platform passed), Enter plays it.
    assert.ok(await focusBy(page, 'Shift+Tab', "document.activeElement.id === 'channel'"), 'the platform box is reached');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.locator('#channel').inputValue(), 'imessage');
    await until(page, "/iMessage.*chosen: Enter plays/.test(document.getElementById('status').textContent)");
    assert.equal(await page.locator('section.conversation').count(), 1, 'nothing is played while the arrows choose');
    await page.keyboard.press('Enter');
    await page.locator('section.conversation[data-channel="imessage"]').waitFor();
    await until(page, "/Played again/.test(document.getElementById('status').textContent)");
    assert.deepEqual(
      await page.locator('section.conversation').evaluateAll((sections) => sections.map((section) => section.getAttribute('data-channel'))),
      ['whatsapp', 'imessage'],
      'played once, on the platform chosen, beside the first',
    );
    assert.equal(await page.locator('section.conversation[data-channel="imessage"] li.row.person').count(), 3);

    const other = await open();
    const keys = await Promise.all(
      [page, other.page].map((tab) => tab.locator('section.conversation').first().getAttribute('data-conversation')),
    );
    assert.notEqual(keys[0], keys[1]);
    assert.equal(await other.page.locator('li.row.person').count(), 0, 'the second tab starts its own conversation');
    await other.page.close();
    await page.close();
  });

  test("a photo of the person's own is drawn in their bubble from the bytes the page holds, and again on another platform", async () => {
    const { page, errors } = await open();
    await page.locator('#attach').selectOption('own');
    // A 1×1 PNG, the person's own file: sent as base64, drawn from a blob: URL of the file itself.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    await page.locator('#own-file').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png });
    await page.locator('#composer-text').fill('my dot');
    await page.keyboard.press('Enter');
    await page.locator('.turn-details[data-turn="0"]').waitFor();
    await drawnPicture(page, 'section.conversation[data-channel="whatsapp"] li.row.person', 0, 1, 'Your photo (dot.png)');
    assert.match(await page.locator('li.row.agent').first().innerText(), /Got your photo: “my dot”/);
    // Played again on Telegram: the same message, the same picture in its bubble.
    await page.locator('#channel').selectOption('telegram');
    await until(page, "/Played again/.test(document.getElementById('status').textContent)");
    await drawnPicture(page, 'section.conversation[data-channel="telegram"] li.row.person', 0, 1, 'Your photo (dot.png)');
    // The HTML report keeps its own policy: images as data: URLs only, never blob:.
    assert.doesNotMatch(contentSecurityPolicy('', ''), /blob:/);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('every figure the page shows of a turn is what --json reports for the same answer', async () => {
    const { page } = await open();
    const text = 'hi, what time are you open today?';
    await say(page, text, 1);
    const checked = await runCli([agent.url, '--case', 'typed', '--json', '--no-config', '--header-env', 'x-api-key=CHAT_API_KEY'], {
      env: ENV,
    });
    const report = JSON.parse(checked.stdout) as {
      cases: {
        turns: {
          request: { message: { text: string } };
          status: number;
          answer: { replies: unknown[] };
          findings: { rule: string; path: string; severity: string; message: string }[];
        }[];
      }[];
    };
    const turn = report.cases[0]!.turns[0]!;
    assert.equal(turn.request.message.text, text, 'the check sent the same message');
    assert.ok(turn.findings.length > 0, 'the answer has findings to compare');
    const replies = turn.answer.replies.length;
    const repliesWord = `${replies} ${replies === 1 ? 'reply' : 'replies'}`;
    const chip = await page.locator('.turn-chip').filter({ hasText: 'Turn 1' }).innerText();
    assert.equal(chip.replace(/\b\d+ ms\b/, 'N ms'), `Turn 1 · HTTP ${turn.status} · N ms · ${repliesWord}`);
    const drawn = await page.locator('li.finding').evaluateAll((items) =>
      items.map((item) => ({
        rule: item.getAttribute('data-rule'),
        path: item.getAttribute('data-pointer'),
        severity: item.classList.contains('error') ? 'error' : 'warning',
        message: item.querySelector('.finding-message')?.textContent ?? '',
      })),
    );
    const byPlace = (a: { rule: string | null; path: string | null }, b: { rule: string | null; path: string | null }) =>
      `${a.rule} ${a.path}`.localeCompare(`${b.rule} ${b.path}`);
    assert.deepEqual(
      drawn.sort(byPlace),
      turn.findings.map(({ rule, path, severity, message }) => ({ rule, path, severity, message })).sort(byPlace),
    );
    // The status line's counts: the same errors and warnings.
    const errors = turn.findings.filter((finding) => finding.severity === 'error').length;
    const warnings = turn.findings.length - errors;
    assert.ok(errors > 0, 'WhatsApp refuses the fourth button: an error');
    const counted = (n: number, word: string) => (n ? `, ${n} ${word}${n === 1 ? '' : 's'}` : '');
    assert.equal(
      (await page.locator('#status').innerText()).replace(/\b\d+ ms\b/, 'N ms'),
      `Turn 1: HTTP ${turn.status}, N ms, ${repliesWord}${counted(errors, 'error')}${counted(warnings, 'warning')}.`,
    );
    await page.close();
  });
});
