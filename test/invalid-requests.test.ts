/**
 * The invalid requests of quality/malformed, generated from the contract's request schema: one for
 * each constraint, each breaking that one alone; and the reference agent, which validates every
 * request against the schema, answering each with 400 and its reasons (and 401 without its token).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import type { JsonSchema } from '../src/contract/contract.js';
import { requestValidator } from '../src/contract/compile-contract.js';
import { bundledContract } from '../src/contract/load-contract.js';
import type { RunningAgent } from '../src/example-agent/serve-agent.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { type InvalidRequest, fullRequest, invalidRequests } from '../src/cases/quality/invalid-requests.js';
import { FULL_MESSAGE } from '../src/cases/quality/malformed.js';
import { CLI, runCli } from './helpers.js';

const contract = bundledContract();
const BASE = {
  conversationId: 'whatsapp:chk_00000000.quality-malformed.1',
  messageId: 'chk_00000000.whatsapp.quality-malformed.p4',
  channel: 'whatsapp',
  message: FULL_MESSAGE,
};

function generated(schema: JsonSchema = contract.requestSchema): InvalidRequest[] {
  const validate =
    schema === contract.requestSchema ? requestValidator(contract) : requestValidator({ ...contract, requestSchema: schema });
  return invalidRequests(schema, fullRequest(schema, BASE, validate), validate);
}

type Schema = Record<string, unknown>;

/** The schema's constraints on values the base request has, counted by keyword, by a walk of its own. */
function constraintsOf(schema: Schema): Record<string, number> {
  const counts: Record<string, number> = {};
  const count = (keyword: string, by = 1) => (counts[keyword] = (counts[keyword] ?? 0) + by);
  const walk = (node: Schema) => {
    if (node.type !== undefined) count('type');
    for (const keyword of ['minLength', 'maxLength', 'pattern', 'enum', 'anyOf']) if (node[keyword] !== undefined) count(keyword);
    if (node.minLength === 0) count('minLength', -1);
    if (Array.isArray(node.required)) count('required', node.required.length);
    for (const child of Object.values((node.properties as Record<string, Schema> | undefined) ?? {})) walk(child);
    if (node.items) walk(node.items as Schema);
  };
  walk(schema);
  return counts;
}

describe('generated from the request schema', () => {
  const list = generated();

  test('one request for each constraint: each required field, type, length, pattern, enum and anyOf', () => {
    const byKeyword: Record<string, number> = {};
    for (const invalid of list) byKeyword[invalid.keyword] = (byKeyword[invalid.keyword] ?? 0) + 1;
    assert.deepEqual(byKeyword, constraintsOf(contract.requestSchema));
    assert.equal(new Set(list.map((invalid) => `${invalid.pointer} ${invalid.keyword}`)).size, list.length, 'no constraint twice');
  });

  test('each breaks that constraint alone, at its place', () => {
    const validate = requestValidator(contract);
    for (const invalid of list) {
      const body = invalid.apply(structuredClone(BASE));
      assert.equal(validate(body), false, `${invalid.pointer} ${invalid.keyword}`);
      const keywords = new Set(validate.errors!.map((error) => error.keyword));
      assert.ok(keywords.has(invalid.keyword), `${invalid.pointer}: ${[...keywords].join(', ')}`);
      if (invalid.keyword !== 'anyOf') assert.equal(keywords.size, 1, `${invalid.pointer}: ${[...keywords].join(', ')}`);
    }
  });

  test('each is worded with what was sent and what the contract allows', () => {
    const lines = list.map((invalid) => `${invalid.what}; ${invalid.allowed}`);
    assert.ok(lines.includes('a messageId of 201 characters; the contract allows 200'));
    assert.ok(lines.includes('a conversationId of 0 characters; the contract wants at least 1'));
    assert.ok(lines.includes('a request with no message; the contract requires it'));
    assert.ok(lines.includes('a message.text that is an integer; the contract wants a string'));
    assert.ok(lines.includes('a message.replyTo.from of "chk-not-listed"; the contract allows "agent" or "person"'));
    assert.ok(
      lines.some((line) => line.startsWith('a message.attachments[0].data of ') && line.includes('the contract wants one matching ^')),
    );
    assert.ok(lines.some((line) => line.startsWith('a channel of ') && line.includes('or a string matching ^[a-z]')));
  });

  test('a new contract version brings its own: a new limit and a new optional field get theirs', () => {
    const schema = structuredClone(contract.requestSchema) as Schema;
    const message = (schema.properties as Record<string, Schema>).message!;
    const fields = message.properties as Record<string, Schema>;
    fields.text = { ...fields.text, maxLength: 5000 };
    fields.locale = { type: 'string', pattern: '^[a-z]{2}$', examples: ['en'] };
    const lines = generated(schema).map((invalid) => `${invalid.pointer} ${invalid.keyword} ${invalid.what}`);
    assert.ok(lines.includes('/message/text maxLength a message.text of 5001 characters'), lines.join('\n'));
    assert.ok(lines.includes('/message/locale type a message.locale that is an integer'));
    assert.ok(lines.some((line) => line.startsWith('/message/locale pattern ')));
    assert.equal(generated(schema).length, list.length + 3);
  });
});

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

describe('the reference agent validates every request against spec/request.schema.json', () => {
  let agent: RunningAgent | undefined;
  before(async () => {
    agent = await startReferenceAgent();
  });
  after(async () => {
    await agent?.close();
  });

  test('answers 200 to the valid request the invalid ones are made from', async () => {
    assert.equal((await post(agent!.url, JSON.stringify(BASE))).status, 200);
  });

  test('answers every generated invalid request with 400, naming what is wrong', async () => {
    for (const invalid of generated()) {
      const answer = await post(agent!.url, JSON.stringify(invalid.apply(structuredClone(BASE))));
      assert.equal(answer.status, 400, `${invalid.what}: ${JSON.stringify(answer.body)}`);
      const problems = (answer.body as { problems?: string[] }).problems;
      assert.ok(problems?.length, `${invalid.what}: ${JSON.stringify(answer.body)}`);
      const where =
        invalid.keyword === 'required' ? invalid.pointer.replace(/\/[^/]+$/, '') || 'the request' : invalid.pointer || 'the request';
      assert.ok(
        problems.some((problem) => problem.startsWith(`${where} `)),
        `${invalid.what}: ${problems.join('; ')}`,
      );
    }
  });
});

describe('the reference agent with a token', () => {
  let agent: RunningAgent | undefined;
  before(async () => {
    agent = await startReferenceAgent({ token: 'reference-token-1f3a' });
  });
  after(async () => {
    await agent?.close();
  });

  test('answers 401 without the bearer or with a wrong one, before looking at the body', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 'reference-token-1f3a' }] as Record<string, string>[]) {
      assert.equal((await post(agent!.url, JSON.stringify(BASE), headers)).status, 401);
      assert.equal((await post(agent!.url, 'not json', headers)).status, 401);
    }
    assert.equal((await post(agent!.url, JSON.stringify(BASE), { authorization: 'Bearer reference-token-1f3a' })).status, 200);
  });
});

describe('serve-example --token-env', () => {
  const TOKEN_ENV = 'SERVE_EXAMPLE_TEST_TOKEN';
  const TOKEN = 'serve-example-token-9c2e';
  let served: ChildProcess | undefined;
  let url = '';
  before(async () => {
    served = spawn(process.execPath, [CLI, 'serve-example', '--port', '0', '--token-env', TOKEN_ENV], {
      env: { ...process.env, [TOKEN_ENV]: TOKEN, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: served.stdout! });
    url = await new Promise<string>((resolve) => {
      lines.on('line', (line) => {
        const match = /listening at (\S+)/.exec(line);
        if (match) resolve(match[1]!);
      });
    });
  });
  after(async () => {
    if (served && served.exitCode === null) {
      const exited = once(served, 'exit');
      served.kill('SIGTERM');
      await exited;
    }
  });

  test('a --token-env whose variable is not set is refused (exit 2)', async () => {
    const result = await runCli(['serve-example', '--port', '0', '--token-env', 'SERVE_EXAMPLE_UNSET_VARIABLE'], {
      env: { SERVE_EXAMPLE_UNSET_VARIABLE: undefined },
    });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--token-env names SERVE_EXAMPLE_UNSET_VARIABLE, but that environment variable is not set/);
  });

  test('it answers 401 without the token, and --quality with the token passes against it, the token printed nowhere', async () => {
    assert.equal((await post(url, JSON.stringify(BASE))).status, 401);
    const result = await runCli([url, '--quality', '--token-env', TOKEN_ENV, '--quality-conversations', '3'], {
      env: { [TOKEN_ENV]: TOKEN },
    });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /^PASS {2}quality\/auth +whatsapp +2 turns/m);
    assert.match(result.stdout, /^PASS {2}quality\/malformed +whatsapp/m);
    assert.doesNotMatch(result.stdout, /warning/);
    assert.ok(!result.stdout.includes(TOKEN) && !result.stderr.includes(TOKEN));
  });
});
