/**
 * The hint for an agent that refused a request for its body's size: what real servers answer at
 * their shipped limits (express 100 kB, Fastify, Koa, hapi, Next.js and nginx 1 MB, Django 2.5 MB), the
 * setting that raises each, and the hosting limits that cannot be raised. The contract has agents
 * accept request bodies up to its figure (a 5 MB photo as base64, with the JSON around it).
 */
import type { HttpAnswer } from '../http/client.js';
import type { Contract } from '../contract/contract.js';
import { bundledContract } from '../contract/load-contract.js';

const MIB = 1024 * 1024;

/** A body over this may be refused for its size by a common server default (1 MB). */
export const COMMON_SMALLEST_LIMIT_BYTES = MIB;

/** A server that refuses large bodies, how its refusal looks, and the setting that raises its limit. */
interface SizeLimitedServer {
  name: string;
  /** What in the answer names the server (quoted in the hint). */
  recognise: (answer: HttpAnswer, text: string) => string | undefined;
  /** Its limit as shipped, named by its setting: `express.json() 100 kB`. */
  shipped: string;
  setting: (acceptedBytes: number) => string;
}

/**
 * The largest request body the contract has agents accept (`x-max-request-bytes`); another --spec
 * that gives none is held to the bundled contract's figure.
 */
export function acceptedRequestBytes(contract: Contract): number {
  return contract.maxRequestBytes ?? bundledContract().maxRequestBytes ?? COMMON_SMALLEST_LIMIT_BYTES;
}

/** The limit as the servers' settings write it: whole mebibytes, at least the contract's figure. */
const megabytes = (bytes: number): number => Math.ceil(bytes / MIB);

const SERVERS: readonly SizeLimitedServer[] = [
  {
    name: 'express',
    recognise: (answer, text) =>
      text.includes('PayloadTooLargeError')
        ? 'PayloadTooLargeError'
        : answer.headers['x-powered-by'] === 'Express'
          ? 'x-powered-by: Express'
          : undefined,
    shipped: 'express.json() 100 kB',
    setting: (bytes) => `express.json({ limit: '${megabytes(bytes)}mb' })`,
  },
  {
    name: 'Fastify',
    recognise: (_answer, text) => (text.includes('FST_ERR_CTP_BODY_TOO_LARGE') ? 'FST_ERR_CTP_BODY_TOO_LARGE' : undefined),
    shipped: 'Fastify bodyLimit 1 MiB',
    setting: (bytes) => `Fastify({ bodyLimit: ${megabytes(bytes)} * 1024 * 1024 })`,
  },
  {
    name: 'hapi',
    // Its Boom 413, as JSON: `{"statusCode":413,"error":"Request Entity Too Large","message":"Payload content length greater than maximum allowed: 1048576"}`.
    recognise: (_answer, text) => /Payload content length greater than maximum allowed: \d+/.exec(text)?.[0],
    shipped: 'hapi payload.maxBytes 1 MiB',
    setting: (bytes) =>
      `the route's options: { payload: { maxBytes: ${megabytes(bytes)} * 1024 * 1024 } } (or routes.payload.maxBytes in Hapi.server())`,
  },
  {
    name: 'Next.js',
    recognise: (_answer, text) => /Body exceeded \S+ ?\S* limit/i.exec(text)?.[0],
    shipped: 'Next.js API routes bodyParser.sizeLimit 1 MB',
    setting: (bytes) =>
      `export const config = { api: { bodyParser: { sizeLimit: '${megabytes(bytes)}mb' } } } in the API route (Server Actions: experimental.serverActions.bodySizeLimit)`,
  },
  {
    name: 'nginx',
    recognise: (answer, text) =>
      /^nginx\b/i.test(answer.headers.server ?? '')
        ? `server: ${answer.headers.server!.slice(0, 40)}`
        : /<center>nginx\b/i.test(text)
          ? 'nginx'
          : undefined,
    shipped: 'nginx client_max_body_size 1 MB',
    setting: (bytes) => `client_max_body_size ${megabytes(bytes)}m; in the server or location block`,
  },
  {
    name: 'Django',
    recognise: (_answer, text) => /RequestDataTooBig|DATA_UPLOAD_MAX_MEMORY_SIZE/.exec(text)?.[0],
    shipped: 'Django DATA_UPLOAD_MAX_MEMORY_SIZE 2.5 MB',
    setting: (bytes) => `DATA_UPLOAD_MAX_MEMORY_SIZE = ${megabytes(bytes)} * 1024 * 1024 in settings.py`,
  },
  {
    name: 'Koa',
    // koa-bodyparser and @koa/bodyparser: Koa answers the error's own message, as plain text.
    recognise: (answer, text) =>
      answer.status === 413 && text.trim() === 'request entity too large' && /^text\/plain/i.test(answer.headers['content-type'] ?? '')
        ? 'request entity too large'
        : undefined,
    shipped: 'koa-bodyparser jsonLimit 1 MB',
    setting: (bytes) => `bodyParser({ jsonLimit: '${megabytes(bytes)}mb' }) (koa-bodyparser, @koa/bodyparser)`,
  },
];

/** `6.99 MB (6,990,726 bytes)`, `291 kB (290,812 bytes)`: sizes as the contract counts them (10^6 bytes a MB), to three figures. */
export function describeBytes(bytes: number): string {
  const figure = bytes < 1e6 ? `${Number((bytes / 1e3).toPrecision(3))} kB` : megabytesFigure(bytes);
  return `${figure} (${bytes.toLocaleString('en-US')} bytes)`;
}

/** `7 MB`: a limit in megabytes, as the contract writes it. */
function megabytesFigure(bytes: number): string {
  return `${Number((bytes / 1e6).toPrecision(3))} MB`;
}

function everySetting(acceptedBytes: number): string {
  const mb = megabytes(acceptedBytes);
  return (
    `express.json({ limit: '${mb}mb' }); Fastify bodyLimit; koa-bodyparser jsonLimit; Next.js api.bodyParser.sizeLimit; ` +
    `nginx client_max_body_size ${mb}m; Django DATA_UPLOAD_MAX_MEMORY_SIZE; hapi payload.maxBytes`
  );
}

/** The hosting limits below the contract's figure, which no setting raises. */
export const HOSTING =
  'Vercel Functions (4.5 MB) and AWS Lambda (6 MB, synchronous payloads) cap request bodies below that, and their caps cannot be raised: serve the endpoint from a host without one.';

/** Every common server's shipped limit, and the setting that raises it to `acceptedBytes`: for a refusal that names no server. */
export function commonLimits(acceptedBytes: number): string {
  return SERVERS.map((server) => `${server.shipped} (${server.setting(acceptedBytes)})`).join(', ');
}

/** The server the answer names, and what named it. */
function recognisedServer(answer: HttpAnswer): { server: SizeLimitedServer; sign: string } | undefined {
  const text = answer.body.subarray(0, 256 * 1024).toString('utf8');
  for (const server of SERVERS) {
    const sign = server.recognise(answer, text);
    if (sign !== undefined) return { server, sign };
  }
  return undefined;
}

/** `hapi refused it (Payload content length greater than maximum allowed: 1048576): raise its limit with …`, for an answer a known server gave; undefined otherwise. */
export function refusingServerWords(answer: HttpAnswer, acceptedBytes: number): string | undefined {
  const recognised = recognisedServer(answer);
  return recognised
    ? `${recognised.server.name} refused it (${recognised.sign}): raise its limit with ${recognised.server.setting(acceptedBytes)}.`
    : undefined;
}

/**
 * The hint for an answer that refused the request for its size, or undefined when the answer does
 * not look like that: any 413; a 400 from a server that names its size limit (Django), or to a
 * body over 1 MB.
 */
export function requestSizeHint(answer: HttpAnswer, requestBytes: number, acceptedBytes: number): string | undefined {
  const recognised = recognisedServer(answer);
  const sizeRefusal =
    answer.status === 413 ||
    (answer.status === 400 && (recognised?.server.name === 'Django' || requestBytes > COMMON_SMALLEST_LIMIT_BYTES));
  if (!sizeRefusal) return undefined;
  const size = `The request body was ${describeBytes(requestBytes)}; the contract has agents accept bodies up to ${megabytesFigure(acceptedBytes)} (a 5 MB photo as base64).`;
  if (recognised) return `${size} ${refusingServerWords(answer, acceptedBytes)} ${HOSTING}`;
  const refused =
    answer.status === 413
      ? 'Raise the request body limit of the server that answered'
      : 'If the agent refused it for its size (Django answers 400 over DATA_UPLOAD_MAX_MEMORY_SIZE, 2.5 MB by default), raise its limit';
  return `${size} ${refused}: ${everySetting(acceptedBytes)}. ${HOSTING}`;
}
