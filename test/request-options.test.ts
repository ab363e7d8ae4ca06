/**
 * Gateway headers, .env files and hints that fit the status: an agent that wants x-api-key from
 * --header-env, one behind basic auth, the token taken from .env, and no secret in any output or
 * report file of such a run.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Report } from '../src/core/report.js';
import { UsageError } from '../src/core/usage-error.js';
import { bundledContract } from '../src/contract/load-contract.js';
import { referenceAnswer } from '../src/example-agent/reference-agent.js';
import { RawResponse, type RunningAgent, serveAgent } from '../src/example-agent/serve-agent.js';
import { checkEndpoint } from '../src/run/check-endpoint.js';
import { parseDotenv } from '../src/run/dotenv.js';
import { type CliResult, runCli, everyReport } from './helpers.js';

const { platforms } = bundledContract();
const rulesOf = (channel: string) => (Object.hasOwn(platforms, channel) ? platforms[channel] : undefined);

const API_KEY = 'ak-live-5d2e9b7c41';
const BASIC = `Basic ${Buffer.from('agent:b4sic-pa55').toString('base64')}`;
const TOKEN = 'tok-7c1f0e9a3b';
/** No token, proxy or .env from the machine: each test says what it needs. */
const CLEAN = { FLOW_FRAMEWORK_AGENT_TOKEN: undefined, API_KEY: undefined, AGENT_BASIC: undefined };

let tmp = '';
let apiKeyAgent: RunningAgent;
let basicAgent: RunningAgent;
let tokenAgent: RunningAgent;
/** The headers each agent received, request by request. */
const received: Record<string, Record<string, string | undefined>[]> = { apiKey: [], basic: [], token: [] };

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'check-endpoint-request-options-'));
  // Wants x-api-key; echoes it in the typed case's reply, and answers the photo with a 500 quoting it.
  apiKeyAgent = await serveAgent((body, raw) => {
    received.apiKey!.push({ key: raw.headers['x-api-key'] as string | undefined, tenant: raw.headers['x-tenant'] as string | undefined });
    if (raw.headers['x-api-key'] !== API_KEY)
      return new RawResponse(401, '{"error":"missing x-api-key"}', { 'content-type': 'application/json' });
    if (body.message.attachments)
      return new RawResponse(500, `{"error":"crashed with key ${API_KEY}"}`, { 'content-type': 'application/json' });
    if (body.message.text.startsWith('hi,')) return { replies: [{ type: 'message', text: `we are open; your key is ${API_KEY}` }] };
    return referenceAnswer(body, rulesOf(body.channel));
  });
  basicAgent = await serveAgent((body, raw) => {
    received.basic!.push({ authorization: raw.headers.authorization });
    if (raw.headers.authorization !== BASIC)
      return new RawResponse(401, '', { 'www-authenticate': 'Basic realm="agent", charset="UTF-8"' });
    return referenceAnswer(body, rulesOf(body.channel));
  });
  tokenAgent = await serveAgent((body, raw) => {
    received.token!.push({ authorization: raw.headers.authorization });
    return referenceAnswer(body, rulesOf(body.channel));
  });
});
after(async () => {
  await Promise.all([apiKeyAgent.close(), basicAgent.close(), tokenAgent.close()]);
  rmSync(tmp, { recursive: true, force: true });
});

/** Runs the command with every report file written; returns what it printed and the files' texts. */
async function runWithReports(
  args: string[],
  env: Record<string, string | undefined>,
  name: string,
): Promise<{ result: CliResult; files: Record<string, string> }> {
  const dir = join(tmp, name);
  const result = await runCli([...args, ...everyReport(dir)], { env: { ...CLEAN, ...env } });
  const files: Record<string, string> = {};
  for (const file of ['a.har', 'a.xml', 'a.html', ...readdirSync(join(dir, 'r')).map((entry) => join('r', entry))]) {
    files[file] = readFileSync(join(dir, file), 'utf8');
  }
  return { result, files };
}

function assertNowhere(secrets: readonly string[], result: CliResult, files: Record<string, string>): void {
  for (const [where, text] of [['stdout', result.stdout], ['stderr', result.stderr], ...Object.entries(files)] as const) {
    for (const secret of secrets) assert.ok(!text.includes(secret), `${where} holds a secret`);
  }
}

describe('--header and --header-env', () => {
  test('an agent that wants x-api-key: sent from --header-env on every request, never printed or reported, $API_KEY in the reproduce line', async () => {
    received.apiKey = [];
    const { result, files } = await runWithReports(
      [apiKeyAgent.url, '--header-env', 'x-api-key=API_KEY', '--header', 'X-Tenant: acme'],
      { API_KEY },
      'api-key',
    );
    assert.equal(result.code, 1, result.stderr); // the photo case fails with a 500, on purpose
    assert.ok(received.apiKey!.length >= 7 && received.apiKey!.every((headers) => headers.key === API_KEY && headers.tenant === 'acme'));
    assert.match(
      result.stderr,
      /token: none \(FLOW_FRAMEWORK_AGENT_TOKEN is not set\) · headers: X-Tenant: acme, x-api-key from API_KEY from the environment/,
    );
    const report = JSON.parse(result.stdout) as Report;
    assert.deepEqual(
      report.cases.filter((c) => !c.passed).map((c) => c.id),
      ['photo'],
    );
    const photo = report.cases.find((c) => c.id === 'photo')!;
    assert.match(photo.findings[0]!.message, /^expected status 200, got 500: \{"error":"crashed with key <redacted>"\}$/);
    assert.match(photo.findings[0]!.hint!, /look at the agent's log/);
    // The photo's body is over 1 KB: the reproduce line plays the case again, with the same headers.
    assert.match(photo.findings[0]!.reproduce!, / --case photo --header 'x-tenant: acme' --header-env 'x-api-key=API_KEY'$/);
    const typed = report.cases.find((c) => c.id === 'typed')!;
    assert.deepEqual(typed.turns[0]!.answer, { replies: [{ type: 'message', text: 'we are open; your key is <redacted>' }] });
    const har = JSON.parse(files['a.har']!) as { log: { entries: { request: { headers: { name: string; value: string }[] } }[] } };
    for (const entry of har.log.entries) {
      const headers = Object.fromEntries(entry.request.headers.map((header) => [header.name, header.value]));
      assert.equal(headers['x-api-key'], '<redacted>');
      assert.equal(headers['x-tenant'], 'acme');
      assert.match(headers['user-agent'] ?? '', /^check-endpoint\//);
    }
    assertNowhere([API_KEY], result, files);
  });

  test('no x-api-key: a 401 whose hint says no token was sent and names --header-env', async () => {
    const report = await checkEndpoint(apiKeyAgent.url, { cases: ['typed'], env: {} });
    assert.equal(
      report.cases[0]!.findings[0]!.hint,
      "The agent refused the request: no token was sent (FLOW_FRAMEWORK_AGENT_TOKEN is not set). Set FLOW_FRAMEWORK_AGENT_TOKEN (in the environment or .env), or name the token's variable with --token-env; a gateway that wants another header (x-api-key) gets it with --header-env NAME=VAR.",
    );
  });

  test('behind basic auth: the 401 names the scheme and --header-env authorization=VAR', async () => {
    const report = await checkEndpoint(basicAgent.url, { cases: ['typed'], env: { FLOW_FRAMEWORK_AGENT_TOKEN: TOKEN } });
    assert.equal(
      report.cases[0]!.findings[0]!.hint,
      'The agent refused the request: the token from FLOW_FRAMEWORK_AGENT_TOKEN was sent as authorization: Bearer …. It asks for Basic (www-authenticate). Send that with --header-env authorization=VAR, VAR holding "Basic <credentials>".',
    );
  });

  test('--header-env authorization=VAR replaces the bearer token: every case passes, and no Bearer is sent', async () => {
    received.basic = [];
    const { result, files } = await runWithReports(
      [basicAgent.url, '--header-env', 'authorization=AGENT_BASIC', '--quality'],
      { AGENT_BASIC: BASIC, FLOW_FRAMEWORK_AGENT_TOKEN: TOKEN },
      'basic',
    );
    const report = JSON.parse(result.stdout) as Report;
    assert.deepEqual(
      report.cases.filter((c) => !c.passed && !c.id.startsWith('quality/')).map((c) => c.id),
      [],
    );
    // quality/auth sends one request without the header and one with a made-up bearer token: both refused.
    assert.equal(report.cases.find((c) => c.id === 'quality/auth')?.passed, true);
    assert.match(result.stderr, /token: not sent \(authorization from AGENT_BASIC from the environment\)/);
    assert.ok(received.basic!.filter((headers) => headers.authorization === BASIC).length >= 7);
    assert.ok(
      received.basic!.every((headers) => !headers.authorization?.includes(TOKEN)),
      'the bearer token is never sent',
    );
    assertNowhere([BASIC, BASIC.slice('Basic '.length), TOKEN], result, files);
  });

  const BAD: [string, string[], Record<string, string>, RegExp][] = [
    [
      'a --header without a colon',
      ['--header', 'x-tenant acme'],
      {},
      /^check-endpoint: --header needs "Name: value"; one given has no ":"$/m,
    ],
    ['a --header value with a line break', ['--header', 'x-tenant: a\nb'], {}, /--header x-tenant: the value holds a line break/],
    ['a --header name that is not a header name', ['--header', 'x tenant: a'], {}, /--header: "x tenant" is not a valid header name/],
    ...['host', 'Content-Length', 'content-type', 'transfer-encoding'].map((name): [string, string[], Record<string, string>, RegExp] => [
      `--header ${name}`,
      ['--header', `${name}: x`],
      {},
      new RegExp(`--header: ${name.toLowerCase()} is written by check-endpoint itself and cannot be given`),
    ]),
    [
      '--header authorization (a secret on the command line)',
      ['--header', `authorization: ${BASIC}`],
      {},
      /--header: authorization carries a secret; give it with --header-env authorization=VAR/,
    ],
    ['--header-env without =', ['--header-env', 'x-api-key'], {}, /--header-env needs NAME=VAR; one given has no "="/],
    [
      '--header-env naming an unset variable',
      ['--header-env', 'x-api-key=API_KEY'],
      {},
      /--header-env x-api-key=API_KEY: API_KEY is not set \(in the environment\)/,
    ],
    [
      '--header-env with a value holding a newline',
      ['--header-env', 'x-api-key=API_KEY'],
      { API_KEY: `${API_KEY}\n` },
      /API_KEY holds a line break or a character an HTTP header cannot carry/,
    ],
    ['--header-env host', ['--header-env', 'Host=API_KEY'], { API_KEY }, /--header-env: host is written by check-endpoint itself/],
    ['the same header twice', ['--header', 'x-a: 1', '--header-env', 'X-A=API_KEY'], { API_KEY }, /x-a is given twice/],
    // A secret pasted where a variable name belongs: what is wrong is said, the value never repeated.
    [
      '--token-env given the token instead of its variable',
      ['--token-env', API_KEY],
      {},
      /^check-endpoint: --token-env: the value given is not the name of an environment variable .*; the value is not repeated here/m,
    ],
    [
      '--header-env given the key instead of its variable',
      ['--header-env', `x-api-key=${API_KEY}`],
      {},
      /^check-endpoint: --header-env: the variable given for a header is not the name of an environment variable .*; write NAME=VAR/m,
    ],
    [
      '--header-env given base64 credentials whole (they split at their "=")',
      ['--header-env', BASIC.slice(6)],
      {},
      /^check-endpoint: --header-env: the variable given for a header is not the name of an environment variable/m,
    ],
  ];
  for (const [what, args, env, message] of BAD) {
    test(`${what}: exit 2, the flag named, no secret`, async () => {
      const result = await runCli([tokenAgent.url, ...args], { env: { ...CLEAN, ...env } });
      assert.equal(result.code, 2, result.stdout + result.stderr);
      assert.match(result.stderr, message);
      const credentials = BASIC.slice(6).replace(/=+$/, '');
      assert.ok(!result.stderr.includes(API_KEY) && !result.stderr.includes(credentials) && !result.stdout.includes(API_KEY));
    });
  }

  test('the library: headers and secretHeaders, vetted the same way', async () => {
    received.apiKey = [];
    const report = await checkEndpoint(apiKeyAgent.url, {
      cases: ['no-reply'],
      env: { KEY: API_KEY },
      headers: { 'x-tenant': 'acme' },
      secretHeaders: { 'x-api-key': 'KEY' },
    });
    assert.equal(report.outcome, 'passed');
    assert.deepEqual(received.apiKey, [{ key: API_KEY, tenant: 'acme' }]);
    await assert.rejects(checkEndpoint(apiKeyAgent.url, { env: {}, headers: { 'content-type': 'text/plain' } }), UsageError);
    await assert.rejects(checkEndpoint(apiKeyAgent.url, { env: {}, secretHeaders: { 'x-api-key': 'KEY' } }), UsageError);
    // A secret given where a variable name belongs is refused by its field, without its value.
    await assert.rejects(checkEndpoint(apiKeyAgent.url, { env: {}, tokenEnv: API_KEY }), (cause: Error) => {
      assert.match(cause.message, /^tokenEnv: the value given is not the name of an environment variable/);
      return !cause.message.includes(API_KEY);
    });
    await assert.rejects(checkEndpoint(apiKeyAgent.url, { env: {}, secretHeaders: { 'x-api-key': API_KEY } }), (cause: Error) => {
      assert.match(cause.message, /^secretHeaders: the variable given for a header is not the name of an environment variable/);
      return !cause.message.includes(API_KEY);
    });
  });
});

describe('.env files', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'check-endpoint-dotenv-'));
    writeFileSync(join(dir, '.env'), `# the agent's secrets\nFLOW_FRAMEWORK_AGENT_TOKEN=${TOKEN}\nexport API_KEY="${API_KEY}"\n`);
    writeFileSync(join(dir, 'other.env'), 'FLOW_FRAMEWORK_AGENT_TOKEN=tok-from-other\n');
    writeFileSync(join(dir, 'broken.env'), `FLOW_FRAMEWORK_AGENT_TOKEN=${TOKEN}\nthis line is not an assignment ${API_KEY}\n`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const sentTokens = (): (string | undefined)[] => [...new Set(received.token!.map((headers) => headers.authorization))];

  test('the token is read from .env in the current folder, and the header line says so; in no output or report', async () => {
    received.token = [];
    const result = await runCli([tokenAgent.url, '--json'], { cwd: dir, env: CLEAN });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(sentTokens(), [`Bearer ${TOKEN}`]);
    assert.match(result.stderr, /token: FLOW_FRAMEWORK_AGENT_TOKEN from \.env/);
    assert.ok(!result.stdout.includes(TOKEN) && !result.stderr.includes(TOKEN));
  });

  test('a variable set in the environment wins over .env', async () => {
    received.token = [];
    const result = await runCli([tokenAgent.url], { cwd: dir, env: { ...CLEAN, FLOW_FRAMEWORK_AGENT_TOKEN: 'tok-from-env' } });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(sentTokens(), ['Bearer tok-from-env']);
    assert.match(result.stdout, /token: FLOW_FRAMEWORK_AGENT_TOKEN from the environment/);
  });

  test('--header-env variables are read from .env too', async () => {
    received.apiKey = [];
    const result = await runCli([apiKeyAgent.url, '--case', 'no-reply', '--header-env', 'x-api-key=API_KEY'], { cwd: dir, env: CLEAN });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(received.apiKey![0]?.key, API_KEY);
    assert.match(result.stdout, /headers: x-api-key from API_KEY from \.env/);
  });

  test('--dotenv FILE reads that file instead; --no-dotenv reads none', async () => {
    received.token = [];
    assert.equal((await runCli([tokenAgent.url, '--dotenv', 'other.env'], { cwd: dir, env: CLEAN })).code, 0);
    assert.deepEqual(sentTokens(), ['Bearer tok-from-other']);
    received.token = [];
    const none = await runCli([tokenAgent.url, '--no-dotenv'], { cwd: dir, env: CLEAN });
    assert.equal(none.code, 0);
    assert.deepEqual(sentTokens(), [undefined]);
    assert.match(none.stdout, /token: none \(FLOW_FRAMEWORK_AGENT_TOKEN is not set\)/);
  });

  test('a .env that does not parse: exit 2 naming the file and line, no secret', async () => {
    const result = await runCli([tokenAgent.url, '--dotenv', 'broken.env'], { cwd: dir, env: CLEAN });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /broken\.env does not parse as a \.env file: line 2 is not NAME=value/);
    assert.ok(!result.stderr.includes(API_KEY) && !result.stderr.includes(TOKEN));
  });

  test('a --dotenv file that does not exist: exit 2 naming it', async () => {
    const result = await runCli([tokenAgent.url, '--dotenv', 'missing.env'], { cwd: dir, env: CLEAN });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--dotenv missing\.env: no such file/);
  });

  test("Node's parser, held to every line", () => {
    assert.deepEqual(parseDotenv('A=1\r\nexport B="two words"\n# c\n\nC=\'x\ny\'\nD = spaced \n', 'f'), {
      A: '1',
      B: 'two words',
      C: 'x\ny',
      D: 'spaced',
    });
    assert.deepEqual(parseDotenv('\uFEFFA=1\n', 'f'), { A: '1' });
    for (const [text, line] of [
      ['A=1\nGARBAGE\n', 2],
      ['GARBAGE\nA=1\n', 1],
      ['=nokey\nA=1\n', 1],
    ] as const) {
      assert.throws(
        () => parseDotenv(text, 'f'),
        new RegExp(`^UsageError: f does not parse as a \\.env file: line ${line} is not NAME=value$`),
        text,
      );
    }
    assert.throws(() => parseDotenv('A=\0', 'f'), /NUL byte/);
  });
});

describe('hints that fit the status', () => {
  let server: Server;
  let origin = '';
  before(async () => {
    server = createServer((request, response) => {
      request.resume();
      if (request.method === 'HEAD') return void response.writeHead(200).end();
      const path = request.url ?? '';
      if (path === '/403') return void response.writeHead(403, { 'www-authenticate': 'Bearer error="invalid_token"' }).end();
      if (path === '/404') return void response.writeHead(404, { 'content-type': 'text/plain' }).end('Cannot POST /agent');
      if (path === '/405') return void response.writeHead(405, { allow: 'GET, HEAD' }).end();
      if (path === '/500')
        return void response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"TypeError: x is undefined"}');
      if (path === '/array')
        return void response.writeHead(200, { 'content-type': 'application/json' }).end('[{"type":"message","text":"hi"}]');
      response.writeHead(418).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const first = async (path: string, env: Record<string, string> = {}) => {
    const report = await checkEndpoint(`${origin}${path}`, { cases: ['typed'], env });
    return report.cases[0]!.findings[0]!;
  };

  test('403 with a token sent, asking for Bearer: check the variable holds what the agent expects', async () => {
    assert.equal(
      (await first('/403', { FLOW_FRAMEWORK_AGENT_TOKEN: TOKEN })).hint,
      'The agent refused the request: the token from FLOW_FRAMEWORK_AGENT_TOKEN was sent as authorization: Bearer …. It asks for Bearer (www-authenticate). Check that FLOW_FRAMEWORK_AGENT_TOKEN holds what the agent expects; a gateway that wants another header (x-api-key) gets it with --header-env NAME=VAR.',
    );
  });
  test('404: the URL path is probably wrong', async () => {
    const finding = await first('/404');
    assert.equal(finding.message, 'expected status 200, got 404: "Cannot POST /agent"');
    assert.equal(finding.hint, 'The URL path is probably wrong: point check-endpoint at the path the agent listens on for POST.');
  });
  test('405: the agent must accept POST, and answer HEAD', async () => {
    assert.equal(
      (await first('/405')).hint,
      'The agent must accept POST at this URL (it allows GET, HEAD), and answer HEAD with any status.',
    );
  });
  test("5xx: look at the agent's log, with the body's excerpt", async () => {
    const finding = await first('/500');
    assert.equal(finding.message, 'expected status 200, got 500: {"error":"TypeError: x is undefined"}');
    assert.match(finding.hint!, /^The agent failed while answering: look at the agent's log/);
  });
  test('a bare JSON array: wrap the replies in { "replies": [...] }', async () => {
    const finding = await first('/array');
    assert.equal(finding.rule, 'schema');
    assert.equal(finding.hint, 'Wrap the replies in { "replies": [...] }: the answer is an object that holds the array.');
  });
  test('any other status keeps the general hint', async () => {
    assert.match((await first('/teapot')).hint!, /^Answer every message with 200 and \{ "replies": \[\.\.\.\] \}/);
  });
});
