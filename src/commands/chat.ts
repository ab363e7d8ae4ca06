/**
 * `check-endpoint chat <url>`: the chat page (src/chat/) served for a person, until Ctrl-C or q.
 * Its flags are read as the check reads them (the same descriptors, the same --header, --header-env
 * and .env mapping), so a message goes out as the check's do. With --start the agent runs beside
 * it (never over one that already answers at the URL), its output on the page; --open opens the
 * page in the system's browser.
 */
import { UsageError } from '../core/usage-error.js';
import { redactText, shownUrl } from '../http/redact.js';
import { somethingAnswers } from '../run/check-endpoint.js';
import { type CheckEndpointOptions, planCheck } from '../run/plan.js';
import { chatServer } from '../chat/chat-server.js';
import { autoConfigNotice } from './config-notice.js';
import { flagOptionsOf } from './flag-options.js';
import { listenForKeys } from './keys.js';
import type { Output } from './output.js';
import { requestNote, requestOptions } from './request-options.js';
import { RestartableAgent } from './restartable-agent.js';
import { heldPortNote, refuseEmptyStart, startSecrets, waitSecondsOf } from './start-flag.js';

/** The chat's arguments: the check's flags it takes (src/cli/options.ts, from the descriptors), and its own. */
export interface ChatCommandArgs {
  url: string;
  channel: string[];
  tokenEnv?: string;
  header: string[];
  headerEnv: string[];
  dotenv?: string | false;
  agentTimeout?: number;
  maxBody?: number;
  spec?: string;
  limits: string[];
  insecure: boolean;
  wait?: number;
  /** The agent's command, run through the shell beside the page. */
  start?: string;
  config?: string | false;
  /** The flags the config file set (and the command line did not), by the key that set them. */
  configKeys?: Readonly<Record<string, string>>;
  /** The config file's keys of the check's own flags (the cases, the reports, --watch), which the chat does not read. */
  configLeftOut?: readonly string[];
  /** Open the page in the system's browser. */
  open: boolean;
}

/** The chat's flags as the library's options, as the check maps its own. */
export function chatOptionsOf(args: ChatCommandArgs): CheckEndpointOptions {
  const wait = waitSecondsOf(args);
  return {
    ...Object.fromEntries(flagOptionsOf(args, 'chat')),
    ...(wait !== undefined ? { waitSeconds: wait } : {}),
    ...requestOptions(args),
  };
}

/**
 * What the chat says of its config file: which file it read (on stderr, as the check's notice, when
 * one found in the current folder starts the agent), and, in one line, the keys it left out: a file
 * shared with the check holds the cases and report files, which the chat does not take.
 */
export function configLines(args: ChatCommandArgs, secrets: readonly string[]): { text: string; stderr: boolean }[] {
  if (typeof args.config !== 'string') return [];
  const notice = autoConfigNotice(args, secrets);
  const read = notice.length ? notice.map((text) => ({ text, stderr: true })) : [{ text: `config: ${args.config}`, stderr: false }];
  const leftOut = args.configLeftOut ?? [];
  if (leftOut.length === 0) return read;
  const keys = leftOut.map((key) => `"${key}"`).join(', ');
  return [...read, { text: `config: left out of the chat, being the check's alone: ${keys}`, stderr: false }];
}

/** Opens `url` in the system's browser; says so when it cannot. On Windows `start ""` (an empty title: Node quotes an empty word as ""), then the address. */
function openInBrowser(url: string, output: Output): void {
  const [command, ...words] =
    process.platform === 'darwin' ? ['open'] : process.platform === 'win32' ? ['cmd', '/c', 'start', ''] : ['xdg-open'];
  const child = process.getBuiltinModule('node:child_process').spawn(command!, [...words, url], { stdio: 'ignore', detached: true });
  child.on('error', () => output.error(`--open: ${command} could not be run: open the address above yourself`));
  child.unref();
}

/** Until Ctrl-C, SIGTERM, or q on the terminal. */
function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stopKeys = listenForKeys(() => {}, done);
    function done(): void {
      process.removeListener('SIGINT', done);
      process.removeListener('SIGTERM', done);
      stopKeys();
      resolve();
    }
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}

export async function runChatCommand(args: ChatCommandArgs, output: Output): Promise<number> {
  refuseEmptyStart(args.start);
  const options = chatOptionsOf(args);
  // Planned here as well, for the header line and what --start must never show: the run's secrets.
  const plan = await planCheck(args.url, options);
  const secrets = startSecrets(plan, args.start);
  const c = output.colour;
  output.line(c.dim(`check-endpoint chat · ${shownUrl(plan.url)} · ${requestNote(plan)}`));
  for (const line of configLines(args, secrets)) {
    if (line.stderr) process.stderr.write(`${line.text}\n`);
    else output.line(c.dim(line.text));
  }
  let agent: RestartableAgent | undefined;
  if (args.start !== undefined) {
    if (await somethingAnswers(plan)) {
      const holder = (await heldPortNote(plan.url, secrets)) ?? 'stop it';
      throw new UsageError(`something is already answering at ${shownUrl(plan.url)}; ${holder}, or leave out --start to talk to it`);
    }
    output.line(c.dim(`agent: ${redactText(args.start, secrets)} (started by --start; waiting up to ${plan.waitSeconds} s)`));
    agent = new RestartableAgent(args.start, secrets);
  }
  try {
    const server = await chatServer(args.url, { ...options, ...(agent ? { agent } : {}) });
    output.line(`The chat page is at ${server.url}`);
    output.line(
      c.dim(`Open it in a browser on this machine (the token in it is the page's own: every request must carry it). Ctrl-C or q stops it.`),
    );
    if (args.open) openInBrowser(server.url, output);
    await untilStopped();
    await server.close();
    return 0;
  } finally {
    await agent?.stop();
  }
}
