/**
 * The chat server: the page and its API on 127.0.0.1 at a free port, for the library
 * (`chatServer`, with any target checkEndpoint takes: a URL, a fetch handler, a Node listener) and
 * the `chat` command alike. The options are planned as the check plans them (planCheck: the token,
 * --header-env, proxies, .env, the contract, the limits), so a message goes out as the check's do;
 * the page holds no secret by construction (the agent's answers are cleaned of the run's secrets
 * where they arrive, the headers shown as recorded, commands name variables), and the page's own
 * requests are let in only from the page (chat-guard.ts).
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { commandName } from '../core/command-name.js';
import { UsageError } from '../core/usage-error.js';
import { type CheckTarget, openTarget, plannedUrl, resolveTarget } from '../run/agent-target.js';
import { type CheckEndpointOptions, planCheck } from '../run/plan.js';
import { channelTitle } from './chat-views.js';
import { requestFileName } from './turn-details.js';
import { reproduceTarget } from '../run/reproduce-target.js';
import { waitForAgent } from '../run/wait-for-agent.js';
import { unreachedMessage } from '../run/unreached-message.js';
import { addedHeaders } from '../run/request-headers.js';
import { DEFAULT_SCENARIO_FOLDER } from '../scenario-files/scenario-file.js';
import type { AgentControl } from './agent-control.js';
import { type ApiAnswer, ChatApi } from './chat-api.js';
import type { ChatLink } from './chat-conversation.js';
import { newPageToken, ownHosts, refusal } from './chat-guard.js';
import { CHAT_POLICY, renderChatPage } from './chat-page.js';
import { MAX_PAGE_BODY_BYTES, PageRequestError, channelRequest, messageRequest, parsePageBody, scenarioRequest } from './chat-requests.js';

export type { AgentControl } from './agent-control.js';

/** The chat server's options: the check's (how messages are sent and judged), and its own. */
export interface ChatServerOptions extends CheckEndpointOptions {
  /** The agent's process, for the page's pane of its output and its restart button (the command's --start). */
  agent?: AgentControl;
  /** Where a conversation saved as a scenario is written: tests/scenarios by default (from the current folder). */
  scenarioFolder?: string;
}

export interface ChatServer {
  /** The page's address, with its token: open it in a browser. */
  url: string;
  /** The server's origin, without the token. */
  origin: string;
  /** How the agent is named on the page: its URL (secrets redacted), or what was served. */
  target: string;
  /** Stops the server and closes the connections to the agent. */
  close(): Promise<void>;
}

/** How long a restart waits for the agent to answer again when no --wait was given (as the command's --start waits). */
const RESTART_WAIT_SECONDS = 60;

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
} as const;

function send(response: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...extra });
  response.end(body);
}

/**
 * The request's body, at most `max` bytes; undefined when it is larger (its content-length says so,
 * or its bytes come to more). The rest is then read and dropped, not kept, so that the 413 the
 * caller sends reaches the page (a socket destroyed mid-upload answers nothing); once the rest is
 * read, the connection is closed (closeOnceRead).
 */
function readBody(request: IncomingMessage, max: number): Promise<Buffer | undefined> {
  if (Number(request.headers['content-length'] ?? 0) > max) {
    request.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const collect = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= max) return void chunks.push(chunk);
      request.off('data', collect);
      request.resume();
      chunks.length = 0;
      resolve(undefined);
    };
    request.on('data', collect);
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** How long the rest of a refused body is read and dropped before its connection is closed anyway. */
const DRAIN_MS = 5000;

/**
 * Closes the connection of a refused request once the rest of its body has been read (it is read
 * and dropped), or after DRAIN_MS: a socket closed with bytes still coming is reset, and the reset
 * can reach the caller before the 413 it was sent, which is then lost with the connection.
 */
function closeOnceRead(request: IncomingMessage): void {
  if (request.complete) return void request.destroy();
  const timer = setTimeout(() => request.destroy(), DRAIN_MS);
  request.once('end', () => {
    clearTimeout(timer);
    request.destroy();
  });
}

/** The API's routes: `/api/conversations/KEY/messages` and the like, by method. */
function apiRoute(
  method: string,
  path: string,
):
  | { name: 'new' | 'message' | 'replay' | 'scenario' | 'download' | 'agent' | 'restart' | 'sample'; key?: string; turn?: number }
  | undefined {
  if (method === 'POST' && path === '/api/conversations') return { name: 'new' };
  if (method === 'GET' && path === '/api/agent') return { name: 'agent' };
  if (method === 'POST' && path === '/api/agent/restart') return { name: 'restart' };
  const sample = /^\/api\/samples\/([a-z-]{1,20})$/.exec(path);
  if (method === 'GET' && sample) return { name: 'sample', key: sample[1]! };
  const download = /^\/api\/conversations\/([0-9a-f]{16})\/turns\/(\d{1,6})\/request\.json$/.exec(path);
  if (method === 'GET' && download) return { name: 'download', key: download[1]!, turn: Number(download[2]) };
  const action = /^\/api\/conversations\/([0-9a-f]{16})\/(messages|replay|scenario)$/.exec(path);
  if (method === 'POST' && action) {
    const names = { messages: 'message', replay: 'replay', scenario: 'scenario' } as const;
    return { name: names[action[2] as keyof typeof names], key: action[1]! };
  }
  return undefined;
}

/**
 * Serves the chat page for an agent: its URL, or a handler in this process as checkEndpoint takes
 * one. Resolves once it listens; throws what planCheck throws for options it cannot use, and a
 * UsageError when `waitSeconds` was given and the agent did not answer within it.
 */
export async function chatServer(target: CheckTarget, options: ChatServerOptions = {}): Promise<ChatServer> {
  const { agent, scenarioFolder = DEFAULT_SCENARIO_FOLDER, ...checkOptions } = options;
  const resolved = resolveTarget(target);
  const plan = await planCheck(plannedUrl(resolved), checkOptions);
  const opened = await openTarget(resolved, plan);
  try {
    if (plan.options.givenValue('waitSeconds') !== undefined) {
      const probe = await waitForAgent(opened.transport, {
        waitSeconds: plan.waitSeconds,
        gaveUp: () => agent?.exited?.(),
        ...(opened.socket ? { socket: opened.socket } : {}),
      });
      if (!probe.reached) throw new UsageError(unreachedMessage(probe, opened.target, plan.waitSeconds, addedHeaders(plan.headers)));
    }
  } catch (cause) {
    await opened.transport.close();
    throw cause;
  }
  const link: ChatLink = {
    plan,
    transport: opened.transport,
    reproduce: reproduceTarget(plan, opened.reproduceUrl),
    inProcess: resolved.kind === 'url' ? undefined : { kind: resolved.kind, path: resolved.path },
    command: commandName(),
  };
  const channels = [...new Set([...plan.channels, ...Object.keys(plan.contract.platforms)])];
  const token = newPageToken();
  // A restart waits for the agent to answer again as the start did: --wait's seconds (60 with --start), 60 when none were given.
  const restartWaitSeconds = plan.waitSeconds > 0 ? plan.waitSeconds : RESTART_WAIT_SECONDS;
  const agentAnswers = async (control: AgentControl): Promise<{ answers: true } | { answers: false; reason: string }> => {
    const probe = await waitForAgent(opened.transport, {
      waitSeconds: restartWaitSeconds,
      gaveUp: () => control.exited?.(),
      ...(opened.socket ? { socket: opened.socket } : {}),
    });
    if (probe.reached) return { answers: true };
    const reason = probe.gaveUp
      ? `it ended (${probe.reason}) before it answered`
      : `it did not answer${probe.waited ? ` within ${restartWaitSeconds} s` : ''}: ${probe.reason}`;
    return { answers: false, reason };
  };
  const api = new ChatApi({ link, channels, token, agent, scenarioFolder, agentAnswers });
  let port = 0;

  const page = (): string =>
    renderChatPage({
      token,
      target: opened.target,
      contractVersion: plan.contract.version,
      channels: channels.map((name) => ({ name, title: channelTitle(plan, name) })),
      initial: channels[0]!,
      agent: agent !== undefined,
      scenarioFolder,
    });

  // Nothing here is redacted again on its way out: the page holds no secret by construction (the
  // target is shown redacted, the headers as recorded, the commands name variables), and the
  // agent's answers were cleaned where they arrived (the transport). A second pass over finished
  // markup or JSON would rewrite the page's own words wherever a secret is one of them (a token
  // `message` took every "message" key and broke the page's script).
  const answer = (response: ServerResponse, result: ApiAnswer): void =>
    send(response, result.status, 'application/json; charset=utf-8', JSON.stringify(result.json));

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const url = new URL(request.url ?? '/', `http://${ownHosts(port)[0]}`);
    const route = apiRoute(method, url.pathname);
    const isPage = method === 'GET' && url.pathname === '/';
    const refused = refusal(request, url, token, port, isPage || route?.name === 'download' ? 'query' : 'header');
    if (refused !== undefined) return answer(response, { status: 403, json: { error: refused } });
    if (isPage) {
      return send(response, 200, 'text/html; charset=utf-8', page(), {
        'content-security-policy': `${CHAT_POLICY}; frame-ancestors 'none'`,
      });
    }
    if (!route) return answer(response, { status: 404, json: { error: `no such page: ${method} ${url.pathname}` } });
    if (route.name === 'sample') {
      const file = api.sampleFile(route.key!);
      if (file === undefined) return answer(response, { status: 404, json: { error: 'no such sample file' } });
      return send(response, 200, file.mime, file.bytes);
    }
    if (route.name === 'download') {
      const body = api.requestBody(route.key!, route.turn!);
      if (body === undefined) return answer(response, { status: 404, json: { error: 'no such turn' } });
      return send(response, 200, 'application/json', body, {
        'content-disposition': `attachment; filename="${requestFileName(route.turn!)}"`,
      });
    }
    const raw = method === 'POST' ? await readBody(request, MAX_PAGE_BODY_BYTES) : Buffer.alloc(0);
    if (raw === undefined) {
      // Not `connection: close`: on it Node's server closes the socket as the 413 is sent, while the caller is still sending.
      response.on('finish', () => closeOnceRead(request));
      return answer(response, { status: 413, json: { error: 'the request is larger than 8 MiB' } });
    }
    const body = parsePageBody(raw);
    switch (route.name) {
      case 'new':
        return answer(response, api.newConversation(channelRequest(body).channel));
      case 'message':
        return answer(response, await api.message(route.key!, messageRequest(body)));
      case 'replay':
        return answer(response, await api.replay(route.key!, channelRequest(body).channel));
      case 'scenario': {
        const { id, save } = scenarioRequest(body);
        return answer(response, await api.scenario(route.key!, id, save));
      }
      case 'agent':
        return answer(response, api.agent());
      case 'restart':
        return answer(response, await api.restartAgent());
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((cause: unknown) => {
      if (response.headersSent) return response.destroy();
      const status = cause instanceof PageRequestError ? 400 : 500;
      const message = cause instanceof Error ? cause.message : String(cause);
      answer(response, { status, json: { error: status === 400 ? message : `internal error: ${message}` } });
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
  } catch (cause) {
    await opened.transport.close();
    throw new UsageError(`the chat page could not listen on 127.0.0.1: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`);
  }
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    target: opened.target,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await opened.transport.close();
    },
  };
}
