/**
 * Captures what real frameworks and servers answer, at their shipped defaults, to the requests
 * that break them: a request body over their size limit, a photo's `text: ""` refused by a
 * pydantic model, and a pydantic answer with `null` for the properties it leaves unset. Each
 * answer (status, headers but `date`, body) goes into fixtures/framework-answers/NAME.json with
 * the version that produced it; the tests judge these exact answers.
 *
 *   npx tsx scripts/framework-answers/capture.ts [express|fastify|koa|nginx|django|fastapi|flask ...]
 *
 * express, Fastify and Koa come from the dev dependencies. nginx, Django and FastAPI are not in the
 * test suite's reach: they are Debian's (`apt-get install nginx-light python3-django
 * python3-fastapi`), run from /usr/sbin/nginx and /usr/bin/python3 when there; missing ones are skipped.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningAgent } from '../../src/example-agent/serve-agent.js';
import { startExpressAgent } from '../../fixtures/agents/frameworks/express-agent.js';
import { startFastifyAgent } from '../../fixtures/agents/frameworks/fastify-agent.js';
import { startKoaAgent } from '../../fixtures/agents/frameworks/koa-agent.js';
import { freePort } from '../../test/helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUT = join(ROOT, 'fixtures/framework-answers');
const HERE = fileURLToPath(new URL('.', import.meta.url));
const PYTHON = '/usr/bin/python3';
const NGINX = '/usr/sbin/nginx';

/** A WhatsApp photo request whose image holds `imageBytes` bytes (as base64, as the contract sends it). */
function photoRequest(imageBytes: Buffer, text = ''): Buffer {
  return Buffer.from(
    JSON.stringify({
      conversationId: 'whatsapp:chk_capture.photo.1',
      messageId: 'chk_capture.whatsapp.photo.p1',
      channel: 'whatsapp',
      message: { text, attachments: [{ kind: 'image', mime: 'image/jpeg', name: 'photo.jpg', data: imageBytes.toString('base64') }] },
    }),
  );
}

/** The 5 MB image request of quality/large-attachment: the largest image a platform delivers. */
const LARGE = photoRequest(Buffer.alloc(5 * 1024 * 1024, 0xd8));
const PHOTO = photoRequest(readFileSync(join(ROOT, 'fixtures/photo.jpg')));
const TYPED = Buffer.from(
  JSON.stringify({
    conversationId: 'whatsapp:chk_capture.typed.1',
    messageId: 'chk_capture.whatsapp.typed.p1',
    channel: 'whatsapp',
    message: { text: 'hi, what time are you open today?' },
  }),
);

interface CapturedAnswer {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: string;
}

/** POSTs a JSON body and takes the answer, even one sent before the body was read (the write may then fail). */
function post(url: string, body: Buffer): Promise<CapturedAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      agent: false,
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (name !== 'date' && value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        resolve({
          status: response.statusCode ?? 0,
          statusText: response.statusMessage ?? '',
          headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    request.on('error', (cause: NodeJS.ErrnoException) => {
      if (cause.code !== 'EPIPE' && cause.code !== 'ECONNRESET') reject(cause);
    });
    request.end(body);
  });
}

function save(
  name: string,
  fixture: { producedBy: string; setting: string; request: string; requestBytes: number; note?: string; answer: CapturedAnswer },
): void {
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, `${name}.json`), `${JSON.stringify(fixture, null, 2)}\n`);
  process.stdout.write(`${name}: ${fixture.answer.status} ${fixture.answer.body.slice(0, 70).replace(/\s+/g, ' ')}\n`);
}

function versionOf(pkg: string): string {
  return (JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
}

async function captureNode(
  name: string,
  producedBy: string,
  setting: string,
  start: () => Promise<RunningAgent>,
  note?: string,
): Promise<void> {
  const agent = await start();
  try {
    const answer = await post(agent.url, LARGE);
    save(name, {
      producedBy,
      setting,
      request: 'a WhatsApp photo request carrying a 5 MB image',
      requestBytes: LARGE.length,
      ...(note ? { note } : {}),
      answer,
    });
  } finally {
    await agent.close();
  }
}

/** Runs a server process until `ready` answers, captures, and stops it. */
async function withProcess<T>(command: string, args: string[], port: number, work: (base: string) => Promise<T>): Promise<T> {
  // A bare environment: Django's debug page lists the process environment, which has no place in a fixture.
  const child: ChildProcess = spawn(command, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let attempt = 0; ; attempt++) {
      const up = await new Promise<boolean>((resolve) => {
        const probe = http.request(base, { method: 'HEAD' }, (response) => resolve(response.resume() !== undefined));
        probe.on('error', () => resolve(false));
        probe.end();
      });
      if (up) break;
      if (attempt > 100 || child.exitCode !== null) throw new Error(`${command} did not start: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return await work(base);
  } finally {
    child.kill('SIGTERM');
  }
}

async function captureNginx(): Promise<void> {
  if (!existsSync(NGINX)) return void process.stdout.write('nginx: skipped (not installed)\n');
  const version = execFileSync(NGINX, ['-v'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) || '';
  const dir = mkdtempSync(join(tmpdir(), 'capture-nginx-'));
  const port = await freePort();
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events {}
http {
  access_log off;
  client_body_temp_path ${dir};
  server { listen 127.0.0.1:${port}; location /agent { return 200 '{"replies":[]}'; } location / { return 200; } }
}
`,
  );
  try {
    await withProcess(NGINX, ['-c', join(dir, 'nginx.conf'), '-p', dir], port, async (base) => {
      const answer = await post(`${base}/agent`, LARGE);
      const nginxVersion = /nginx\/([\d.]+)/.exec(version || answer.body)?.[1] ?? 'unknown';
      save('nginx-413', {
        producedBy: `nginx ${nginxVersion} (Debian nginx-light)`,
        setting: 'client_max_body_size (default 1m)',
        request: 'a WhatsApp photo request carrying a 5 MB image',
        requestBytes: LARGE.length,
        note: 'nginx in front of an agent: it answers before the agent sees the request.',
        answer,
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function pythonVersion(module: string): string {
  return execFileSync(PYTHON, ['-c', `import ${module}; print(getattr(${module}, "__version__", None) or ${module}.VERSION)`], {
    encoding: 'utf8',
  }).trim();
}

async function captureDjango(): Promise<void> {
  if (!existsSync(PYTHON) || !/\d/.test(safe(() => pythonVersion('django')))) return void process.stdout.write('django: skipped\n');
  const version = pythonVersion('django');
  for (const mode of ['production', 'debug'] as const) {
    const port = await freePort();
    await withProcess(PYTHON, [join(HERE, 'django_app.py'), String(port), mode], port, async (base) => {
      const answer = await post(`${base}/agent`, LARGE);
      save(`django-400-${mode}`, {
        producedBy: `Django ${version} (Debian python3-django), runserver, DEBUG=${mode === 'debug' ? 'True' : 'False'}`,
        setting: 'DATA_UPLOAD_MAX_MEMORY_SIZE (default 2621440, 2.5 MB)',
        request: 'a WhatsApp photo request carrying a 5 MB image',
        requestBytes: LARGE.length,
        note: 'request.body raises RequestDataTooBig, a SuspiciousOperation, which Django answers with 400.',
        answer,
      });
    });
  }
}

async function captureFastApi(): Promise<void> {
  if (!existsSync(PYTHON) || !/\d/.test(safe(() => pythonVersion('fastapi')))) return void process.stdout.write('fastapi: skipped\n');
  const producedBy = `FastAPI ${pythonVersion('fastapi')} with pydantic ${pythonVersion('pydantic')} (Debian python3-fastapi), uvicorn`;
  const port = await freePort();
  await withProcess(PYTHON, [join(HERE, 'fastapi_app.py'), String(port)], port, async (base) => {
    save('fastapi-422-photo-text', {
      producedBy,
      setting: 'message.text: constr(min_length=1)',
      request: 'the photo case: text "" with one image',
      requestBytes: PHOTO.length,
      answer: await post(`${base}/agent`, PHOTO),
    });
    save('fastapi-null-optional', {
      producedBy,
      setting: 'response_model with Optional properties, without response_model_exclude_none=True',
      request: 'the typed case',
      requestBytes: TYPED.length,
      answer: await post(`${base}/agent`, TYPED),
    });
  });
}

async function captureFlask(): Promise<void> {
  if (!existsSync(PYTHON) || !/\d/.test(safe(() => pythonVersion('flask')))) return void process.stdout.write('flask: skipped\n');
  const port = await freePort();
  await withProcess(PYTHON, [join(HERE, 'flask_app.py'), String(port)], port, async (base) => {
    save('flask-500', {
      producedBy: `Flask ${pythonVersion('flask')} (Debian python3-flask), its development server, debug off`,
      setting: 'an unhandled error in the handler',
      request: 'the photo case: text "" with one image',
      requestBytes: PHOTO.length,
      answer: await post(`${base}/agent`, PHOTO),
    });
  });
}

function safe(read: () => string): string {
  try {
    return read();
  } catch {
    return '';
  }
}

/** Each capture by name: `capture.ts flask` runs only that one; no name runs them all. */
const CAPTURES: Record<string, () => Promise<void>> = {
  express: async () => {
    await captureNode(
      'express-413',
      `express ${versionOf('express')} (body-parser ${versionOf('body-parser')})`,
      'express.json() (default limit 100kb)',
      () => startExpressAgent(),
      'NODE_ENV unset (development): the error page holds the stack, with the paths of the machine that captured it.',
    );
    await captureNode(
      'express-413-production',
      `express ${versionOf('express')} (body-parser ${versionOf('body-parser')}), NODE_ENV=production`,
      'express.json() (default limit 100kb)',
      () => startExpressAgent({ env: 'production' }),
    );
  },
  fastify: () =>
    captureNode('fastify-413', `fastify ${versionOf('fastify')}`, 'bodyLimit (default 1048576, 1 MiB)', () => startFastifyAgent()),
  koa: () =>
    captureNode('koa-413', `koa ${versionOf('koa')} with @koa/bodyparser ${versionOf('@koa/bodyparser')}`, 'jsonLimit (default 1mb)', () =>
      startKoaAgent(),
    ),
  nginx: captureNginx,
  django: captureDjango,
  fastapi: captureFastApi,
  flask: captureFlask,
};
const chosen = process.argv.slice(2);
for (const [name, capture] of Object.entries(CAPTURES)) if (chosen.length === 0 || chosen.includes(name)) await capture();
