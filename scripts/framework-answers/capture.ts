/**
 * Captures what real frameworks and servers answer, at their shipped defaults, to the requests
 * that break them: a request body over their size limit, a photo's `text: ""` refused by a
 * pydantic model or a gin binding, a pydantic, Go, Jackson, PHP or Ruby answer with `null` for the
 * properties it leaves unset, a strict decoder's refusal of quality/forward-compat's unknown
 * fields, a handler's failure on quality/malformed's body that is not JSON, and a JSON answer
 * sent with another content type. Each answer (status, headers but `date`, the header names in
 * the order received, `Date` among them, body) goes into fixtures/framework-answers/NAME.json with
 * the version that produced it; the tests judge these exact answers.
 *
 *   npx tsx scripts/framework-answers/capture.ts [express|fastify|koa|nginx|django|fastapi|flask|go|gin|echo|aiohttp|starlette|tornado|jdk|php|sinatra ...]
 *
 * express, Fastify and Koa come from the dev dependencies. The others are not in the test suite's
 * reach: they are Debian's (`apt-get install nginx-light python3-django python3-fastapi
 * python3-aiohttp python3-starlette python3-uvicorn python3-tornado golang-go
 * golang-github-gin-gonic-gin-dev golang-github-labstack-echo-dev default-jdk
 * libjackson2-databind-java php-cli ruby-sinatra puma`), run from /usr/sbin/nginx, /usr/bin/python3,
 * /usr/bin/go, /usr/bin/javac, /usr/bin/php and /usr/bin/ruby when there; missing ones are skipped.
 * The Go and Java apps are built into a temporary directory, with nothing fetched.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningAgent } from '../../src/example-agent/serve-agent.js';
import { FUTURE_FIELDS, futureMessage } from '../../src/cases/quality/forward-compat.js';
import { GROSS } from '../../src/cases/quality/malformed.js';
import type { AgentRequest } from '../../src/core/request.js';
import { startExpressAgent } from '../../fixtures/agents/frameworks/express-agent.js';
import { startFastifyAgent } from '../../fixtures/agents/frameworks/fastify-agent.js';
import { startKoaAgent } from '../../fixtures/agents/frameworks/koa-agent.js';
import { freePort } from '../../test/helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUT = join(ROOT, 'fixtures/framework-answers');
const HERE = fileURLToPath(new URL('.', import.meta.url));
const PYTHON = '/usr/bin/python3';
const NGINX = '/usr/sbin/nginx';
const GO = '/usr/bin/go';
/** Where Debian's Go libraries (gin, echo) are, for a GOPATH build. */
const GOCODE = '/usr/share/gocode';
const JAVAC = '/usr/bin/javac';
const JAVA = '/usr/bin/java';
const JACKSON = ['jackson-databind', 'jackson-core', 'jackson-annotations'].map((jar) => `/usr/share/java/${jar}.jar`);
const PHP = '/usr/bin/php';
const RUBY = '/usr/bin/ruby';

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
const TYPED_REQUEST: AgentRequest = {
  conversationId: 'whatsapp:chk_capture.typed.1',
  messageId: 'chk_capture.whatsapp.typed.p1',
  channel: 'whatsapp',
  message: { text: 'hi, what time are you open today?' },
};
const TYPED = Buffer.from(JSON.stringify(TYPED_REQUEST));
/** quality/forward-compat's request: a valid message with unknown fields at every level, `sentAt` the first of them. */
const FUTURE = Buffer.from(
  JSON.stringify({
    conversationId: 'whatsapp:chk_capture.future.1',
    messageId: 'chk_capture.whatsapp.future.p1',
    channel: 'whatsapp',
    ...FUTURE_FIELDS,
    message: futureMessage(),
  }),
);
/** quality/malformed's first body: the typed request cut off halfway, not JSON. */
const NOT_JSON = Buffer.from(GROSS[0]!.body(TYPED_REQUEST));

interface CapturedAnswer {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  /** The header names as received, in order (`Date` too, though its value is not kept): the shape a server writes them in tells it. */
  headerNames: string[];
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
          headerNames: response.rawHeaders.filter((_, index) => index % 2 === 0),
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
async function withProcess<T>(
  command: string,
  args: string[],
  port: number,
  work: (base: string) => Promise<T>,
  options: { cwd?: string } = {},
): Promise<T> {
  // A bare environment: Django's debug page lists the process environment, which has no place in a fixture.
  const child: ChildProcess = spawn(command, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' },
    ...(options.cwd ? { cwd: options.cwd } : {}),
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
  return execFileSync(
    PYTHON,
    ['-c', `import ${module}; print(getattr(${module}, "__version__", None) or getattr(${module}, "version", None) or ${module}.VERSION)`],
    {
      encoding: 'utf8',
    },
  ).trim();
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

/** The requests a capture sends, by what the fixture's `request` says of them. */
const REQUESTS = {
  large: { request: 'a WhatsApp photo request carrying a 5 MB image', body: LARGE },
  photo: { request: 'the photo case: text "" with one image', body: PHOTO },
  typed: { request: 'the typed case', body: TYPED },
  future: { request: "quality/forward-compat's request: unknown fields at every level, sentAt the first", body: FUTURE },
  notJson: { request: "quality/malformed's first body: the typed request cut off halfway, not JSON", body: NOT_JSON },
} as const;

/** One answer to capture from a running app: its fixture's name, the path posted to, the request, and what the fixture says of it. */
interface Shot {
  name: string;
  path: string;
  send: keyof typeof REQUESTS;
  setting: string;
  note?: string;
}

/** Starts an app, posts each shot's request to it, saves each answer, and stops it. */
async function captureApp(
  producedBy: string,
  command: string,
  args: (port: number) => string[],
  shots: readonly Shot[],
  options: { cwd?: string } = {},
): Promise<void> {
  const port = await freePort();
  await withProcess(
    command,
    args(port),
    port,
    async (base) => {
      for (const { name, path, send, setting, note } of shots) {
        const { request, body } = REQUESTS[send];
        save(name, {
          producedBy,
          setting,
          request,
          requestBytes: body.length,
          ...(note ? { note } : {}),
          answer: await post(`${base}${path}`, body),
        });
      }
    },
    options,
  );
}

const skipped = (name: string, why: string): void => void process.stdout.write(`${name}: skipped (${why})\n`);

/** `1.19.8`: the Go toolchain's version. */
function goVersion(): string {
  return /go(\d+\.\d+(\.\d+)?)/.exec(execFileSync(GO, ['version'], { encoding: 'utf8', env: goEnv() }))?.[1] ?? 'unknown';
}

/** Go with the local toolchain only and nothing fetched. */
function goEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, GOTOOLCHAIN: 'local', GOPROXY: 'off', GOFLAGS: '', ...extra };
}

/**
 * Builds one Go file into `dir`: the standard library only in module mode, or, for Debian's
 * libraries (gin, echo), in GOPATH mode from /usr/share/gocode, the file in a package of its own
 * with a go.mod so that their /v4 import paths resolve.
 */
function buildGo(dir: string, file: string, gopath: boolean): string {
  const binary = join(dir, file.replace(/\.go$/, ''));
  if (!gopath) {
    execFileSync(GO, ['build', '-o', binary, join(HERE, file)], { env: goEnv(), stdio: 'inherit' });
    return binary;
  }
  const pkg = join(dir, 'src', 'app');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, 'main.go'), readFileSync(join(HERE, file)));
  writeFileSync(join(pkg, 'go.mod'), 'module app\n\ngo 1.19\n');
  execFileSync(GO, ['build', '-o', binary, '.'], {
    cwd: pkg,
    env: goEnv({ GO111MODULE: 'off', GOPATH: `${dir}:${GOCODE}` }),
    stdio: 'inherit',
  });
  return binary;
}

/** A Go library's own version constant (`const Version = "v1.8.1"`), read from its Debian source. */
function goLibraryVersion(file: string): string {
  return /Version\s*=\s*"v?([\d.]+)"/.exec(safe(() => readFileSync(join(GOCODE, 'src', file), 'utf8')))?.[1] ?? 'unknown';
}

async function withTempDir(prefix: string, work: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    await work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function captureGo(): Promise<void> {
  if (!existsSync(GO)) return skipped('go', `${GO} not installed`);
  const producedBy = `Go ${goVersion()} (Debian golang), net/http and encoding/json`;
  await withTempDir('capture-go-', async (dir) => {
    const binary = buildGo(dir, 'go_app.go', false);
    await captureApp(producedBy, binary, (port) => [String(port)], [
      {
        name: 'go-null-buttons',
        path: '/null-buttons',
        send: 'typed',
        setting: 'a Reply struct without ,omitempty: Buttons []string `json:"buttons"`, Image *Image `json:"image"`, ...',
        note: 'encoding/json writes a nil slice or pointer as null; the answer is written with json.NewEncoder(w).Encode.',
      },
      {
        name: 'go-nil-replies',
        path: '/nil-replies',
        send: 'typed',
        setting: 'Answer{Replies: replies} with var replies []Reply and nothing appended',
        note: 'a nil slice marshals as null, an empty one ([]Reply{}) as [].',
      },
      {
        name: 'go-400-body-too-large',
        path: '/body-limit',
        send: 'large',
        setting: 'r.Body = http.MaxBytesReader(w, r.Body, 1<<20); http.Error(w, err.Error(), http.StatusBadRequest) on the decode error',
        note: 'net/http itself sets no body limit.',
      },
      {
        name: 'go-400-unknown-field',
        path: '/strict',
        send: 'future',
        setting:
          'json.NewDecoder(r.Body) with DisallowUnknownFields(); http.Error(w, err.Error(), http.StatusBadRequest) on the decode error',
        note: 'the decoder stops at the first field the struct does not have.',
      },
      {
        name: 'go-500-not-json',
        path: '/naive',
        send: 'notJson',
        setting: 'http.Error(w, err.Error(), http.StatusInternalServerError) on the decode error',
        note: 'json.Decoder says unexpected EOF for a body cut off; json.Unmarshal would say unexpected end of JSON input.',
      },
      {
        name: 'go-200-text-plain',
        path: '/text-plain',
        send: 'typed',
        setting: 'w.Write(body) of json.Marshal(answer), no Content-Type set',
        note: 'net/http sniffs the first 512 bytes (http.DetectContentType): JSON is text/plain; charset=utf-8.',
      },
    ]);
  });
}

async function captureGin(): Promise<void> {
  if (!existsSync(GO)) return skipped('gin', `${GO} not installed`);
  if (!existsSync(join(GOCODE, 'src/github.com/gin-gonic/gin'))) return skipped('gin', 'golang-github-gin-gonic-gin-dev not installed');
  const producedBy = `gin ${goLibraryVersion('github.com/gin-gonic/gin/version.go')} (Debian golang-github-gin-gonic-gin-dev), Go ${goVersion()}`;
  await withTempDir('capture-gin-', async (dir) => {
    const binary = buildGo(dir, 'gin_app.go', true);
    await captureApp(producedBy, binary, (port) => [String(port)], [
      {
        name: 'gin-400-binding-required',
        path: '/agent',
        send: 'photo',
        setting: 'Text string `json:"text" binding:"required"`, c.ShouldBindJSON(&req), c.JSON(400, gin.H{"error": err.Error()})',
        note: 'the validator (go-playground/validator) refuses a required string that is "".',
      },
    ]);
  });
}

async function captureEcho(): Promise<void> {
  if (!existsSync(GO)) return skipped('echo', `${GO} not installed`);
  if (!existsSync(join(GOCODE, 'src/github.com/labstack/echo'))) return skipped('echo', 'golang-github-labstack-echo-dev not installed');
  const producedBy = `echo ${goLibraryVersion('github.com/labstack/echo/echo.go')} (Debian golang-github-labstack-echo-dev), Go ${goVersion()}`;
  await withTempDir('capture-echo-', async (dir) => {
    const binary = buildGo(dir, 'echo_app.go', true);
    await captureApp(producedBy, binary, (port) => [String(port)], [
      {
        name: 'echo-413-body-limit',
        path: '/agent',
        send: 'large',
        setting: 'e.Use(middleware.BodyLimit("1M"))',
        note: 'echo itself sets no limit; its BodyLimit middleware answers a larger body with its JSON error.',
      },
    ]);
  });
}

async function captureAiohttp(): Promise<void> {
  if (!existsSync(PYTHON) || !/\d/.test(safe(() => pythonVersion('aiohttp')))) return skipped('aiohttp', 'not installed');
  const producedBy = `aiohttp ${pythonVersion('aiohttp')} (Debian python3-aiohttp), web.run_app`;
  await captureApp(producedBy, PYTHON, (port) => [join(HERE, 'aiohttp_app.py'), String(port)], [
    { name: 'aiohttp-413', path: '/agent', send: 'large', setting: 'web.Application() (client_max_size default 1024**2, 1 MiB)' },
    {
      name: 'aiohttp-500-not-json',
      path: '/agent',
      send: 'notJson',
      setting: 'await request.json() with no try: the JSONDecodeError is unhandled',
    },
    {
      name: 'aiohttp-null-optional',
      path: '/agent',
      send: 'typed',
      setting: 'web.json_response of a dict holding None',
    },
  ]);
}

async function captureStarlette(): Promise<void> {
  if (!existsSync(PYTHON) || !/\d/.test(safe(() => pythonVersion('starlette')))) return skipped('starlette', 'not installed');
  const producedBy = `Starlette ${pythonVersion('starlette')} (Debian python3-starlette), uvicorn ${pythonVersion('uvicorn')}`;
  await captureApp(producedBy, PYTHON, (port) => [join(HERE, 'starlette_app.py'), String(port)], [
    {
      name: 'starlette-500-not-json',
      path: '/agent',
      send: 'notJson',
      setting: 'await request.json() with no try: the JSONDecodeError is unhandled',
      note: "Starlette's ServerErrorMiddleware answers it, debug off.",
    },
    { name: 'starlette-null-optional', path: '/agent', send: 'typed', setting: 'JSONResponse of a dict holding None' },
  ]);
}

async function captureTornado(): Promise<void> {
  if (!existsSync(PYTHON) || !/\d/.test(safe(() => pythonVersion('tornado')))) return skipped('tornado', 'not installed');
  const producedBy = `Tornado ${pythonVersion('tornado')} (Debian python3-tornado)`;
  await captureApp(producedBy, PYTHON, (port) => [join(HERE, 'tornado_app.py'), String(port)], [
    {
      name: 'tornado-500-not-json',
      path: '/agent',
      send: 'notJson',
      setting: 'json.loads(self.request.body) with no try: the JSONDecodeError is unhandled',
      note: "RequestHandler.write_error's page, debug off.",
    },
    { name: 'tornado-null-optional', path: '/agent', send: 'typed', setting: 'self.write of a dict holding None' },
    { name: 'tornado-200-text-html', path: '/text', send: 'typed', setting: 'self.write(json.dumps(answer)): a str, no set_header' },
  ]);
}

async function captureJdk(): Promise<void> {
  if (!existsSync(JAVAC) || !existsSync(JAVA)) return skipped('jdk', 'no JDK at /usr/bin/javac');
  if (!JACKSON.every((jar) => existsSync(jar))) return skipped('jdk', 'libjackson2-databind-java not installed');
  await withTempDir('capture-jdk-', async (dir) => {
    const classpath = [dir, ...JACKSON].join(':');
    execFileSync(JAVAC, ['-cp', classpath, '-d', dir, join(HERE, 'JdkJacksonApp.java')], { stdio: 'inherit' });
    const versions = execFileSync(JAVA, ['-cp', classpath, 'JdkJacksonApp', '--version'], { encoding: 'utf8' }).trim();
    const producedBy = `${versions} (Debian openjdk-17, libjackson2-databind-java), com.sun.net.httpserver.HttpServer`;
    await captureApp(producedBy, JAVA, (port) => ['-cp', classpath, 'JdkJacksonApp', String(port)], [
      {
        name: 'jdk-jackson-400-unknown-field',
        path: '/strict',
        send: 'future',
        setting:
          'new ObjectMapper().readValue(body, AgentRequest.class) (FAIL_ON_UNKNOWN_PROPERTIES on by default); 400 with e.getMessage()',
      },
      {
        name: 'jdk-jackson-500-not-json',
        path: '/naive',
        send: 'notJson',
        setting: 'new ObjectMapper().readValue(body, AgentRequest.class); 500 with e.getMessage() of the IOException',
      },
      {
        name: 'jdk-jackson-null-optional',
        path: '/agent',
        send: 'typed',
        setting: 'new ObjectMapper().writeValueAsString(answer) of a Reply class with unset fields (no @JsonInclude)',
      },
    ]);
  });
}

async function capturePhp(): Promise<void> {
  if (!existsSync(PHP)) return skipped('php', `${PHP} not installed`);
  const version = /PHP ([\d.]+)/.exec(execFileSync(PHP, ['-v'], { encoding: 'utf8' }))?.[1] ?? 'unknown';
  const producedBy = `PHP ${version} (Debian php8.2-cli), its built-in server (php -S), no php.ini changes`;
  await captureApp(producedBy, PHP, (port) => ['-S', `127.0.0.1:${port}`, join(HERE, 'php_app.php')], [
    {
      name: 'php-null-optional',
      path: '/agent',
      send: 'typed',
      setting: "header('Content-Type: application/json'); echo json_encode of an array holding null",
    },
    {
      name: 'php-200-text-html',
      path: '/text',
      send: 'typed',
      setting: 'echo json_encode(...) with no header() (default_mimetype text/html)',
    },
  ]);
}

async function captureSinatra(): Promise<void> {
  if (!existsSync(RUBY)) return skipped('sinatra', `${RUBY} not installed`);
  const versions = safe(() =>
    execFileSync(
      RUBY,
      [
        '-e',
        'require "sinatra/base"; require "rack"; s = Sinatra::Base.server.find { |name| begin; Rack::Handler.get(name); rescue LoadError, NameError; nil; end }; v = s == "puma" ? (require "puma/const"; Puma::Const::PUMA_VERSION) : (require "webrick"; WEBrick::VERSION); puts "Sinatra #{Sinatra::VERSION} (Debian ruby-sinatra), Rack #{Rack.release}, #{s} #{v}, Ruby #{RUBY_VERSION}"',
      ],
      { encoding: 'utf8' },
    ).trim(),
  );
  if (!versions) return skipped('sinatra', 'ruby-sinatra not installed');
  await captureApp(`${versions}, production mode`, RUBY, (port) => [join(HERE, 'sinatra_app.rb'), String(port)], [
    { name: 'sinatra-null-optional', path: '/agent', send: 'typed', setting: 'content_type :json; a hash holding nil, to_json' },
    { name: 'sinatra-200-text-html', path: '/text', send: 'typed', setting: 'to_json with no content_type (Sinatra sends text/html)' },
    {
      name: 'sinatra-500-not-json',
      path: '/agent',
      send: 'notJson',
      setting: 'JSON.parse(request.body.read) with no rescue: the JSON::ParserError is unhandled',
      note: 'set :environment, :production: no show_exceptions page, Sinatra answers its own 500.',
    },
  ]);
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
  go: captureGo,
  gin: captureGin,
  echo: captureEcho,
  aiohttp: captureAiohttp,
  starlette: captureStarlette,
  tornado: captureTornado,
  jdk: captureJdk,
  php: capturePhp,
  sinatra: captureSinatra,
};
const chosen = process.argv.slice(2);
for (const [name, capture] of Object.entries(CAPTURES)) if (chosen.length === 0 || chosen.includes(name)) await capture();
