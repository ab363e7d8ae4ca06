/**
 * examples/fastapi: pydantic models of the request and the answer, written from spec/, and a
 * FastAPI agent built on them. The models are held equal to spec/response.schema.json on every
 * fixture answer (each one the schema accepts, they accept; each one it refuses, they refuse),
 * under every Python here that has pydantic (Debian's python3-pydantic is v1, a newer one v2);
 * the agent passes --quality --extended --channel all with no finding at all.
 *
 * Python and the packages come from Debian (`apt-get install python3-fastapi python3-uvicorn
 * python3-pydantic`, which .ci/run does as root): Debian's python is /usr/bin/python3, which may
 * not be the python3 on PATH (pyenv's). A test whose packages are missing reports itself skipped,
 * saying which, never passed.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { checkEndpoint, validateAnswer } from '../src/index.js';
import { sampleRepliesOfEveryKind } from './every-reply-kind.js';
import { ROOT } from './helpers.js';

const EXAMPLE = join(ROOT, 'examples/fastapi');
const PYTHONS = ['/usr/bin/python3', 'python3'];

/** The pythons that import these modules, each once (a PATH python3 that is /usr/bin/python3 counts once). */
function pythonsWith(modules: string): { python: string; version: string }[] {
  const found = new Map<string, { python: string; version: string }>();
  for (const python of PYTHONS) {
    const probe = spawnSync(python, ['-c', `import sys, ${modules}, pydantic; print(sys.executable, pydantic.VERSION)`], {
      encoding: 'utf8',
    });
    if (probe.status !== 0) continue;
    const [executable, version] = probe.stdout.trim().split(' ');
    if (!found.has(executable!)) found.set(executable!, { python, version: version! });
  }
  return [...found.values()];
}

const WITH_PYDANTIC = pythonsWith('pydantic');
const WITH_FASTAPI = pythonsWith('fastapi, uvicorn');
const MISSING =
  'needs Debian\u2019s python3-fastapi, python3-uvicorn and python3-pydantic (apt-get install -y python3-fastapi python3-uvicorn python3-pydantic; .ci/run installs them as root)';

/** Every answer body the fixtures hold, with the channel it is for. */
function fixtureAnswers(): { name: string; body: unknown }[] {
  const folder = join(ROOT, 'fixtures/answers');
  const answers = readdirSync(folder)
    .filter((file) => file.endsWith('.json') && file !== 'manifest.json')
    .map((file) => ({ name: file, body: JSON.parse(readFileSync(join(folder, file), 'utf8')) as unknown }));
  const nulls = JSON.parse(readFileSync(join(ROOT, 'fixtures/framework-answers/fastapi-null-optional.json'), 'utf8'));
  answers.push({ name: 'fastapi-null-optional', body: JSON.parse(nulls.answer.body) });
  answers.push(...sampleRepliesOfEveryKind().map((reply, index) => ({ name: `every-reply-kind ${index}`, body: { replies: [reply] } })));
  // Each a constraint the fixtures above do not break.
  const edges: Record<string, unknown> = {
    'text a number': { replies: [{ type: 'message', text: 42 }] },
    'a button null': { replies: [{ type: 'message', text: 'pick', buttons: null }] },
    'no buttons': { replies: [{ type: 'message', text: 'pick', buttons: [] }] },
    'an empty label': { replies: [{ type: 'message', text: 'pick', buttons: [''] }] },
    'a list and an image': {
      replies: [
        {
          type: 'message',
          text: 'x',
          image: { url: 'https://example.com/a.png' },
          list: { button: 'b', sections: [{ rows: [{ id: 'a', title: 'a' }] }] },
        },
      ],
    },
    'two rows of one id': {
      replies: [
        {
          type: 'message',
          text: 'x',
          list: {
            button: 'b',
            sections: [
              {
                rows: [
                  { id: 'a', title: 'a' },
                  { id: 'a', title: 'b' },
                ],
              },
            ],
          },
        },
      ],
    },
    'a port of letters': { replies: [{ type: 'message', text: 'x', link: { url: 'https://example.com:abc/', label: 'Open' } }] },
    'a port over 65535': { replies: [{ type: 'message', text: 'x', link: { url: 'https://example.com:70000/', label: 'Open' } }] },
    'a template name in capitals': { replies: [{ type: 'template', name: 'Order', language: 'en' }] },
    'an image, no text': { replies: [{ type: 'message', image: { data: 'iVBORw0KGgo=', mime: 'image/png' } }] },
    'image data not base64': { replies: [{ type: 'message', image: { data: 'not base64!', mime: 'image/png' } }] },
    'an unknown reply type': { replies: [{ type: 'sticker', id: 'x' }] },
    'replies not an array': { replies: { type: 'message', text: 'x' } },
  };
  answers.push(...Object.entries(edges).map(([name, body]) => ({ name, body })));
  return answers;
}

/** The schema's verdict: accepted when no finding of rule schema (shape, types, unique ids, nulls). */
function schemaAccepts(body: unknown): boolean {
  return !validateAnswer(body, { channel: 'web' }).some((finding) => finding.rule === 'schema');
}

describe('examples/fastapi/models.py is spec/response.schema.json', () => {
  if (WITH_PYDANTIC.length === 0)
    test('the models accept what the schema accepts', { skip: `no python here imports pydantic: ${MISSING}` }, () => {});
  for (const { python, version } of WITH_PYDANTIC) {
    test(`pydantic ${version} (${python}): the models accept exactly the fixture answers the schema accepts`, () => {
      const answers = fixtureAnswers();
      const run = spawnSync(python, [join(EXAMPLE, 'validate_answers.py')], {
        input: answers.map(({ body }) => JSON.stringify(body)).join('\n'),
        encoding: 'utf8',
      });
      assert.equal(run.status, 0, run.stderr);
      const verdicts = run.stdout.trim().split('\n');
      assert.equal(verdicts.length, answers.length);
      const differ = answers
        .map(({ name, body }, index) => ({ name, schema: schemaAccepts(body), models: verdicts[index]! }))
        .filter(({ schema, models }) => schema !== (models === 'accepted'))
        .map(({ name, schema, models }) => `${name}: the schema ${schema ? 'accepts' : 'refuses'} it; the models: ${models}`);
      assert.deepEqual(differ, []);
      const refused = answers.filter(({ body }) => !schemaAccepts(body)).length;
      assert.ok(refused >= 15 && answers.length - refused >= 15, `both verdicts are tried (${refused} refused of ${answers.length})`);
    });
  }
});

describe('examples/fastapi/app.py passes --quality --extended --channel all', () => {
  const TOKEN = 'fastapi-example-token-3c9e';
  const python = WITH_FASTAPI[0]?.python;
  let agent: ChildProcess | undefined;
  let url = '';

  before(async () => {
    if (python === undefined) return;
    const env = { ...process.env, PORT: '0', FLOW_FRAMEWORK_AGENT_TOKEN: TOKEN };
    agent = spawn(python, [join(EXAMPLE, 'app.py')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
    const lines = createInterface({ input: agent.stdout! });
    const exited = once(agent, 'exit').then(([code]) => {
      throw new Error(`the FastAPI example exited (code ${code}) before it listened`);
    });
    const listening = new Promise<string>((resolve) => {
      lines.on('line', (line) => {
        const match = /^listening on (http:\/\/127\.0\.0\.1:\d+\/agent)$/.exec(line);
        if (match) resolve(match[1]!);
      });
    });
    url = await Promise.race([listening, exited]);
  });
  after(async () => {
    if (agent && agent.exitCode === null) {
      agent.kill('SIGTERM');
      await once(agent, 'exit');
    }
  });

  test('every case on every channel, with no finding at all', { skip: python === undefined ? MISSING : false }, async () => {
    const report = await checkEndpoint(url, {
      quality: true,
      extended: true,
      channels: ['all'],
      env: { FLOW_FRAMEWORK_AGENT_TOKEN: TOKEN },
    });
    const findings = report.cases.flatMap((c) => c.findings.map((f) => `${c.channel}/${c.id}: ${f.rule} ${f.severity}: ${f.message}`));
    assert.deepEqual(findings, []);
    assert.equal(report.outcome, 'passed', JSON.stringify(report.error));
    assert.equal(report.exitCode, 0);
    assert.equal(report.counts.cases, report.counts.passed);
    assert.ok(
      report.cases.some((c) => c.id === 'quality/retry' && c.turns.length === 4),
      'the retry case sent both retries',
    );
  });
});
