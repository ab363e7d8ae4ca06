/**
 * `check-endpoint URL --watch`: the check in a developer's edit loop, as Vitest's watch mode and
 * `uvicorn --reload` are. It checks at once, then again on every burst of changes to the agent's
 * folder (src/commands/watched-files.ts), and on Enter; q, Ctrl-C, SIGTERM or SIGHUP ends it with the
 * last finished run's exit code (a second Ctrl-C is passed on to the run, which then exits at once);
 * its folder deleted or renamed away ends it at once with exit 2, said once.
 *
 * Each run is the command itself in a child process, with the same words but --watch's and with
 * --failed-first, so it is the run the developer would get by hand: what did not pass last time is
 * played first, and the record (.check-endpoint/last-run.json) is written as ever. With --start,
 * each run starts the agent anew and stops it at its end, so a change always meets the new code,
 * an agent that crashes on its way up prints its last lines and the loop keeps watching, and no
 * agent is left running when it ends. Without --start, a change waits for the agent's own reloader
 * (uvicorn --reload, node --watch, air): the run starts once the agent has stopped answering and
 * answers again (the child's --wait), or after RELOAD_GRACE_MS when it never stopped; should it
 * stop later (a reloader that builds first), it is checked again once it is back.
 * Under each run's digest: what changed since the last run that played (src/report/problem-changes.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { type Agent, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { UsageError } from '../core/usage-error.js';
import { isFolder } from '../core/is-folder.js';
import type { ProblemReport } from '../core/report.js';
import { recordedProblems } from '../report/last-run.js';
import { formatProblemChanges, problemChanges } from '../report/problem-changes.js';
import { playedAt } from '../report/merge-record.js';
import { REPORT_FORMATS } from '../report/formats.js';
import { argumentKey } from '../core/argument-key.js';
import { DEFAULT_TOKEN_ENV } from '../run/defaults.js';
import { parseTargetUrl } from '../run/target-url.js';
import { proxyFor } from '../http/proxy.js';
import { proxyAgentMaker } from '../http/proxy-agent.js';
import type { CheckCommandArgs } from './check.js';
import { STATE_FOLDER, readLastRunSync } from './last-run-file.js';
import type { Output } from './output.js';
import { agentWrites } from './agent-writes.js';
import { gitTracked } from './git-tracked.js';
import { watchFiles } from './watched-files.js';
import { listenForKeys } from './keys.js';

/** How long a change waits for the agent's own reloader to take it down, before checking the agent as it is. */
export const RELOAD_GRACE_MS = 2000;
/** A HEAD probe with no answer by then counts as an agent that is not answering (a reloader holding the port while it restarts). */
const PROBE_TIMEOUT_MS = 1000;
/** How long, after a run that checked the agent as it was, a reload that comes late is still looked for. */
const LATE_RELOAD_MS = 60_000;
/** How long a run without --start waits for a reloaded agent to answer again, unless --wait says. */
const RELOAD_WAIT_SECONDS = 30;
/** The exit code when no run finished before the loop ended: an interrupted run's. */
const INTERRUPTED = 130;
/** The exit code when the watched folder was deleted or renamed away: the loop cannot go on (a usage error's code: the check could not run). */
export const FOLDER_GONE = 2;
/** How often the loop looks whether its folder is still the one it started in: a rename sends no file event. */
const FOLDER_CHECK_MS = 500;

/** The words of a run: the command line's, without --watch, --watch-dir and --watch-ignore, with --no-watch (a config file's "watch" stays off) and --failed-first. */
export function runWords(argv: readonly string[], waitForReload: boolean): string[] {
  const words: string[] = [];
  // After `--` every word is an argument: the flags added go before it.
  const end = argv.indexOf('--');
  const flags = end < 0 ? argv : argv.slice(0, end);
  for (let index = 0; index < flags.length; index++) {
    const word = flags[index]!;
    if (word === '--watch' || word === '--no-watch' || word.startsWith('--watch-dir=') || word.startsWith('--watch-ignore=')) continue;
    if (word === '--watch-dir' || word === '--watch-ignore') {
      index++;
      continue;
    }
    words.push(word);
  }
  const added = ['--no-watch', '--failed-first', ...(waitForReload ? ['--wait', String(RELOAD_WAIT_SECONDS)] : [])];
  return [...words, ...added, ...(end < 0 ? [] : argv.slice(end))];
}

/** What the check writes that a change of must not start a run: the report folder, each report file, the record's folder. */
function outputsOf(args: CheckCommandArgs): string[] {
  const given = new Map<string, unknown>(Object.entries(args));
  const files = [args.reportDir, ...REPORT_FORMATS.flatMap((format) => (format.flag ? [given.get(argumentKey(format.flag.name))] : []))];
  return [...files.filter((file): file is string => typeof file === 'string'), STATE_FOLDER].map((file) => resolve(file));
}

/** The folder watched and the agent's URL (parsed as the check parses it: `localhost:8080/agent` is http), or a UsageError. */
function vetted(args: CheckCommandArgs): { folder: string; url: URL } {
  if (args.json) throw new UsageError('--watch prints run after run for people; --json prints one run as JSON: give one of them');
  if (args.failed)
    throw new UsageError(
      '--watch plays every case, what did not pass first (--failed-first); --failed plays only those: leave --failed out',
    );
  const folder = resolve(args.watchDir ?? '.');
  if (!isFolder(folder)) throw new UsageError(`--watch-dir: ${args.watchDir} is not a folder`);
  return { folder, url: parseTargetUrl(args.url, args.tokenEnv ?? DEFAULT_TOKEN_ENV) };
}

/** The connection the probe goes through: the proxy the check itself takes to the URL (HTTP_PROXY, HTTPS_PROXY, NO_PROXY), else a direct one. */
async function probeConnection(target: URL): Promise<Agent | undefined> {
  const proxy = proxyFor(target, process.env);
  if (proxy === undefined) return undefined;
  const makeAgent = await proxyAgentMaker(proxy.url, target.protocol === 'https:', 1);
  return makeAgent(false);
}

/** Whether something answers a HEAD request at the URL within PROBE_TIMEOUT_MS (any status), through `connection` when given. */
function answers(target: URL, connection: Agent | undefined): Promise<boolean> {
  return new Promise((settle) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const options = { method: 'HEAD', timeout: PROBE_TIMEOUT_MS, rejectUnauthorized: false, ...(connection ? { agent: connection } : {}) };
    const probe = send(target, options, (response) => {
      response.resume();
      settle(true);
    });
    probe.on('timeout', () => probe.destroy(new Error('no answer')));
    probe.on('error', () => settle(false));
    probe.end();
  });
}

/** Waits, up to RELOAD_GRACE_MS (or until the loop quits), for the agent's own reloader to stop it: true once it stopped answering. */
async function reloadStarted(url: URL, connection: Agent | undefined, quitting: () => boolean): Promise<boolean> {
  const until = Date.now() + RELOAD_GRACE_MS;
  while (Date.now() < until && !quitting()) {
    if (!(await answers(url, connection))) return true;
    await new Promise((resume) => setTimeout(resume, 100));
  }
  return false;
}

/** When the record in this folder was written, or undefined: none (or none readable). */
function recordedAt(): string | undefined {
  try {
    return readLastRunSync().finishedAt;
  } catch {
    return undefined;
  }
}

export async function runWatchCommand(argv: readonly string[], args: CheckCommandArgs, output: Output): Promise<number> {
  const { folder, url } = vetted(args);
  const connection = await probeConnection(url);
  const outputs = outputsOf(args);
  // A report folder that holds the watched one (--report-dir .) would take every edit for a report.
  const holder = outputs.find((output) => folder === output || folder.startsWith(output + sep));
  if (holder !== undefined)
    throw new UsageError(
      `--watch: the reports go to ${holder}, which holds the watched folder ${folder}: every change there would be taken for a report; give --report-dir a folder of its own`,
    );
  const c = output.colour;
  const words = runWords(argv, args.start === undefined && args.wait === undefined);
  const script = process.argv[1]!;
  const startNote = args.start === undefined ? '' : ', the agent started anew each run';
  const watching = c.dim(`--watch: watching ${folder} for changes${startNote} (Enter plays again, q quits)`);

  let lastExitCode: number | undefined;
  /** The loop's own exit code, when it ends for a reason of its own (its folder gone), not a run's. */
  let endCode: number | undefined;
  /** The folder as it was when the loop started: another one made in its place is not it. */
  const watchedFolder = statSync(folder);
  let folderCheck: NodeJS.Timeout | undefined;
  let problemsBefore: ProblemReport[] | undefined;
  let running: ChildProcess | undefined;
  /** A run is under way: waiting for the agent's reload, or playing. */
  let busy = false;
  let next: { files: string[] } | undefined;
  let quitting = false;
  let stopKeys = (): void => {};
  let ended: (code: number) => void = () => {};
  const end = new Promise<number>((resolveEnd) => (ended = resolveEnd));

  /** Counts the runs asked for: a late reload's watch (lateReload) ends once another run is asked for. */
  let asked = 0;
  /** Changes made while a run played: the agent's own writing, once seen twice (src/commands/agent-writes.ts). */
  const writes = agentWrites(gitTracked(folder));
  /** Notes of --watch's own, held while a run prints (they would land in its digest). */
  let heldNotes: string[] = [];
  const note = (text: string): void => {
    if (running) heldNotes.push(text);
    else output.line(c.dim(text));
  };
  const printHeldNotes = (): void => {
    for (const text of heldNotes) output.line(c.dim(text));
    heldNotes = [];
  };

  /**
   * After a run that checked the agent as it was (its reloader had not taken it down within
   * RELOAD_GRACE_MS: a reloader that builds first, as air and cargo-watch do, keeps the old process
   * answering meanwhile): should the agent go down before LATE_RELOAD_MS, it is checked again once it is back.
   */
  const lateReload = async (): Promise<void> => {
    const askedBefore = asked;
    const until = Date.now() + LATE_RELOAD_MS;
    while (Date.now() < until && !quitting && asked === askedBefore) {
      if (!(await answers(url, connection))) {
        if (quitting || asked !== askedBefore) return;
        output.line(c.dim('--watch: the agent restarted after that run: checking the new one, once it answers'));
        trigger([]);
        return;
      }
      await new Promise((resume) => setTimeout(resume, 250));
    }
  };

  const play = async (files: string[]): Promise<void> => {
    // The folder deleted or renamed under the loop: no run can start there (Node's spawn fails on a
    // deleted working folder), and its files are no longer watched; said, instead of a false verdict.
    if (folderGone()) return;
    let asItWas = false;
    if (files.length && args.start === undefined) {
      output.line(c.dim(`--watch: ${changedText(files)}: waiting for the agent's own reload`));
      asItWas = !(await reloadStarted(url, connection, () => quitting)) && !quitting;
      if (asItWas) output.line(c.dim(`--watch: the agent kept answering for ${RELOAD_GRACE_MS / 1000} s: checking it as it is`));
    } else if (files.length) output.line(c.dim(`--watch: ${changedText(files)}: checking again, what did not pass first`));
    if (quitting) return;
    const recordBefore = recordedAt();
    // Its own process group: a Ctrl-C reaches it once, from this process, which then waits for it to stop its agent.
    const child = process
      .getBuiltinModule('node:child_process')
      .spawn(process.execPath, [script, ...words], { stdio: ['ignore', 'inherit', 'inherit'], detached: true });
    running = child;
    writes.playing(Date.now());
    const code = await new Promise<number>((exited) => {
      child.on('error', (error) => {
        output.error(`check-endpoint: --watch could not run the check: ${error.message}`);
        exited(2);
      });
      child.on('exit', (exitCode, signal) => exited(exitCode ?? (signal === 'SIGTERM' ? 143 : INTERRUPTED)));
    });
    running = undefined;
    writes.played(Date.now());
    if (quitting || folderGone()) return;
    lastExitCode = code;
    const recordNow = recordedAt();
    if (recordNow !== undefined && recordNow !== recordBefore) {
      const record = readLastRunSync();
      const problemsNow = recordedProblems(record);
      // What this run played: a record a partial run merged into keeps the other cases as they were.
      const played = record.cases.filter((recorded) => recorded.status !== 'not-run' && playedAt(recorded, record) === record.finishedAt);
      const changes = problemsBefore ? problemChanges(problemsBefore, problemsNow, played) : undefined;
      if (changes) output.line(formatProblemChanges(changes, c));
      // A problem not checked this time is still to be told of: fixed or still, the next time its case is played.
      problemsBefore = [...problemsNow, ...(changes?.unchecked ?? [])];
    } else output.line(c.dim('--watch: this run played no case: nothing to compare with the last one'));
    printHeldNotes();
    output.line();
    output.line(watching);
    if (asItWas) void lateReload();
  };

  const trigger = (files: string[]): void => {
    if (quitting) return;
    asked++;
    if (busy) {
      next = { files: [...new Set([...(next?.files ?? []), ...files])] };
      return;
    }
    void (async () => {
      busy = true;
      let todo: { files: string[] } | undefined = { files };
      while (todo && !quitting) {
        next = undefined;
        await play(todo.files);
        todo = next;
      }
      busy = false;
    })();
  };

  /**
   * Whether the watched folder was deleted or renamed away (it is not there, or another folder is
   * in its place, or this process's working folder went with it). Said once, as soon as it is
   * seen, and the loop ends with FOLDER_GONE: a watcher of a folder that is gone sees nothing, and
   * no run can start in it; nothing is played against a folder that is not the agent's.
   */
  const folderGone = (): boolean => {
    if (sameFolder(folder, watchedFolder) && workingFolderExists()) return false;
    if (!quitting) {
      output.error(
        `check-endpoint: --watch: ${folder} was deleted or renamed away while the loop watched it: nothing is left to watch and no run can start there, ` +
          `so the loop ends (exit ${FOLDER_GONE}); start --watch again in the agent's folder`,
      );
      endCode = FOLDER_GONE;
      quit();
    }
    return true;
  };

  const quit = (signal: 'SIGINT' | 'SIGTERM' = 'SIGINT'): void => {
    if (quitting) {
      // Again, while the run in progress stops: it is passed on, and the run exits at once, as a second Ctrl-C of its own does.
      running?.kill(signal);
      return;
    }
    quitting = true;
    stopKeys();
    clearInterval(folderCheck);
    void (async () => {
      await watcher.close();
      const child = running;
      if (child && child.exitCode === null && child.signalCode === null) {
        // The check stops its --start agent and writes what finished, as on a Ctrl-C of its own.
        const exited = new Promise<void>((stopped) => child.once('exit', () => stopped()));
        child.kill(signal);
        await exited;
      }
      ended(endCode ?? lastExitCode ?? INTERRUPTED);
    })();
  };

  const watcher = await watchFiles(
    { folder, outputs, ignorePatterns: args.watchIgnore },
    (changed, since) => {
      const { files, notes } = writes.sort(changed, since);
      for (const text of notes) note(text);
      if (files.length) trigger(files);
    },
    // A folder deleted under the watcher makes it fail (ENOENT): that is said as the folder gone, once.
    (error) => {
      if (!folderGone()) output.error(`check-endpoint: --watch: ${error.message}`);
    },
    note,
  );
  // A rename sends no event for the files in the folder: the loop looks itself, and a deletion is seen the same way.
  folderCheck = setInterval(() => void folderGone(), FOLDER_CHECK_MS);
  const onSigint = (): void => quit('SIGINT');
  // The terminal closed (SIGHUP): ended as a SIGTERM ends it, the run in progress stopping its agent.
  const onSigterm = (): void => quit('SIGTERM');
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  process.on('SIGHUP', onSigterm);
  stopKeys = listenForKeys(
    () => {
      output.line(c.dim('--watch: playing again, what did not pass first'));
      const watchedAgain = writes.watchAgain();
      if (watchedAgain) output.line(c.dim(watchedAgain));
      trigger([]);
    },
    () => quit(),
  );
  output.line(watching);
  trigger([]);
  const code = await end;
  process.off('SIGINT', onSigint);
  process.off('SIGTERM', onSigterm);
  process.off('SIGHUP', onSigterm);
  return code;
}

/** Whether the folder at `path` is still `was` (the same device and inode), not gone nor another made in its place. */
function sameFolder(path: string, was: { dev: number; ino: number }): boolean {
  try {
    const now = statSync(path);
    return now.isDirectory() && now.dev === was.dev && now.ino === was.ino;
  } catch {
    return false;
  }
}

/** Whether this process's working folder is still there: process.cwd() throws once it is deleted. */
function workingFolderExists(): boolean {
  try {
    process.cwd();
    return true;
  } catch {
    return false;
  }
}

/** `agent.py changed`, `agent.py and 2 more changed`. */
function changedText(files: readonly string[]): string {
  return `${files[0]}${files.length > 1 ? ` and ${files.length - 1} more` : ''} changed`;
}
