/**
 * --watch with a real agent in a folder of its own, started by --start, whose file the test
 * rewrites as a developer saves it: the fix shows as fixed, by the problem's name, each run's agent is a new
 * process, an agent that crashes on its way up prints its last lines and the loop keeps watching,
 * Enter plays again, and q ends it with the last run's exit code and no agent left running. Also
 * without --start, an agent of its own that restarts on a change (as a reloader does); and the pure
 * parts: the run's words, what changed between two runs, and the paths it leaves out.
 */
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { ProblemReport } from '../src/core/report.js';
import { runWords } from '../src/commands/watch.js';
import { leftOut } from '../src/commands/watched-files.js';
import { ignoreRules } from '../src/commands/ignore-rules.js';
import { agentWrites } from '../src/commands/agent-writes.js';
import { gitTracked } from '../src/commands/git-tracked.js';
import makeIgnore from 'ignore';
import { formatProblemChanges, problemChanges } from '../src/report/problem-changes.js';
import { readLastRunSync } from '../src/commands/last-run-file.js';
import { recordedProblems } from '../src/report/last-run.js';
import { NO_COLOURS } from '../src/report/colour.js';
import { CLI, freePort, alive } from './helpers.js';
import { startReferenceAgent } from '../src/example-agent/start-reference-agent.js';
import { RawResponse, serveAgent } from '../src/example-agent/serve-agent.js';
import { referenceAnswer } from '../src/example-agent/reference-agent.js';
import { bundledContract } from '../src/contract/load-contract.js';

/**
 * An agent's source: a server on PORT that reads each request's body and answers `{ replies: [reply] }`,
 * `reply` computed by the `onBody` lines from `body` (its `head` lines run first, once).
 */
function serverSource(head: string[], onBody: string[]): string {
  return [
    "import { createServer } from 'node:http';",
    ...head,
    'createServer((request, response) => {',
    "  if (request.method === 'HEAD') return response.end();",
    "  let body = '';",
    "  request.on('data', (chunk) => (body += chunk));",
    "  request.on('end', () => {",
    ...onBody.map((line) => `    ${line}`),
    "    response.setHeader('content-type', 'application/json');",
    '    response.end(JSON.stringify({ replies: [reply] }));',
    '  });',
    "}).listen(Number(process.env.PORT), '127.0.0.1');",
    '',
  ].join('\n');
}

/**
 * The agent as the developer first wrote it (an image of null in every reply), fixed, and broken so
 * that it cannot start; `logs`: the fixed one, appending each request to conversations.jsonl in its own folder.
 */
function agentSource(version: 'null image' | 'fixed' | 'crashes' | 'logs'): string {
  if (version === 'crashes') return "console.error('boom: cannot read the menu');\nprocess.exit(3);\n";
  return serverSource(
    [
      "import { appendFileSync } from 'node:fs';",
      // Each process says it started, outside the watched folder.
      'appendFileSync(process.env.PIDS_FILE, `${process.pid}\\n`);',
    ],
    [
      ...(version === 'logs' ? ["appendFileSync('conversations.jsonl', body + '\\n');"] : []),
      `const reply = ${version !== 'null image' ? "{ type: 'message', text: 'We open at 8.' }" : "{ type: 'message', text: 'We open at 8.', image: null }"};`,
    ],
  );
}

/**
 * A café menu as a Go team first wrote it, with three defects: on WhatsApp a list whose opener is
 * 25 characters and which has 11 rows; on SMS buttons. `button fixed`: the opener shortened, the
 * other two left.
 */
function menuAgentSource(version: 'three defects' | 'button fixed'): string {
  const button = version === 'three defects' ? 'See the whole menu today!' : 'See the menu';
  return serverSource(
    [],
    [
      'const { channel } = JSON.parse(body);',
      'const rows = Array.from({ length: 11 }, (_, n) => ({ id: `item_${n + 1}`, title: `Item ${n + 1}` }));',
      `const reply = channel === 'sms' ? { type: 'message', text: 'What can I get you?', buttons: ['Coffee', 'Tea'] } : { type: 'message', text: 'What can I get you?', list: { button: ${JSON.stringify(button)}, sections: [{ title: 'Menu', rows }] } };`,
    ],
  );
}

/** util-linux's script(1), which runs a command on a terminal of its own (a pseudo-terminal): Debian's bsdutils, always installed. */
const SCRIPT = ['/usr/bin/script', '/bin/script'].find((path) => existsSync(path));

/**
 * The watch loop as a developer runs it, its output collected; `waitFor` resolves once a line
 * matching the pattern has come after `from`. `onTerminal`: run on a terminal (through script(1)),
 * where it reads keys, not lines; what the test writes to its stdin is typed on that terminal.
 */
function startWatching(folder: string, args: string[], env: NodeJS.ProcessEnv, onTerminal = false) {
  const command = onTerminal
    ? [SCRIPT!, '-qfec', [process.execPath, CLI, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' '), '/dev/null']
    : [process.execPath, CLI, ...args];
  const child: ChildProcessWithoutNullStreams = spawn(command[0]!, command.slice(1), {
    cwd: folder,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, FLOW_FRAMEWORK_AGENT_TOKEN: undefined, ...env },
  });
  loops.add(child);
  let out = '';
  // A terminal ends its lines with \r\n.
  const collect = (chunk: Buffer): void => void (out += chunk.toString().replaceAll('\r', ''));
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((settle) => child.on('exit', (code) => settle(code)));
  const waitFor = async (pattern: RegExp, from = 0, timeoutMs = 30_000): Promise<number> => {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const found = pattern.exec(out.slice(from));
      if (found) return from + found.index + found[0].length;
      await new Promise((resume) => setTimeout(resume, 50));
    }
    throw new Error(`no ${pattern} after ${timeoutMs} ms in:\n${out.slice(from)}`);
  };
  return { child, exited, waitFor, output: () => out };
}

/**
 * A server with a reloader of its own, in a new folder: it answers the reply src/reply.txt held when
 * it last listened (a link of null when the reply starts with "null"). `reload` is its code on the
 * first change to src/ of a reload: it has `stop()`, which takes the old server down, and
 * `reloaded()`, which reads the reply anew, listens, and takes the next change for a new reload.
 */
async function startReloadingAgent(name: string, reload: string) {
  const folder = mkdtempSync(join(tmpdir(), `check-endpoint-watch-${name}-`));
  mkdirSync(join(folder, 'src'));
  writeFileSync(join(folder, 'src/reply.txt'), 'We open at 8.');
  const port = await freePort();
  const source = `
import { createServer } from 'node:http';
import { readFileSync, watch } from 'node:fs';
let text = '';
const server = createServer((request, response) => {
  if (request.method === 'HEAD') return response.end();
  request.resume().on('end', () => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ replies: [text.startsWith('null') ? { type: 'message', text, link: null } : { type: 'message', text }] }));
  });
});
const listen = () => { text = readFileSync('src/reply.txt', 'utf8'); server.listen(${port}, '127.0.0.1'); };
const stop = () => { server.close(); server.closeAllConnections(); };
let reloading = false;
const reloaded = () => { reloading = false; listen(); };
watch('src', () => {
  if (reloading) return;
  reloading = true;
  ${reload}
});
listen();
`;
  return { folder, port, agent: spawn(process.execPath, ['--input-type=module', '-e', source], { cwd: folder, stdio: 'ignore' }) };
}

const WATCHING = /^--watch: watching .+ \(Enter plays again, q quits\)$/m;

/** Types Enter (`\n` on a pipe, `\r` on a terminal) and waits, after `from`, for the passing run it plays and the loop's watching again. */
async function playAgain(watch: ReturnType<typeof startWatching>, enter: '\n' | '\r', from: number): Promise<number> {
  watch.child.stdin.write(enter);
  let at = await watch.waitFor(/^--watch: playing again, what did not pass first$/m, from);
  at = await watch.waitFor(/^1 of 1 case passed\.$/m, at);
  return watch.waitFor(WATCHING, at);
}

/** Every watch loop started: a test that fails midway leaves its loop running, which would keep the test process from ending. */
const loops = new Set<ChildProcessWithoutNullStreams>();
after(async () => {
  const running = [...loops].filter((child) => child.exitCode === null && child.signalCode === null);
  // SIGTERM: the loop stops its run and that run's agent; SIGKILL should it not end within 10 s.
  await Promise.all(
    running.map(async (child) => {
      const exited = new Promise((settle) => child.once('exit', settle));
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }),
  );
});

describe('--watch with a --start agent whose file is rewritten', { timeout: 120_000 }, () => {
  const temporary: string[] = [];
  after(() => {
    for (const folder of temporary) rmSync(folder, { recursive: true, force: true });
  });

  /** The agent's folder, holding its first version, and the pids of the agents each run started (written outside it). */
  function agentFolder(name: string, version: 'null image' | 'fixed' | 'logs') {
    const folder = mkdtempSync(join(tmpdir(), `check-endpoint-${name}-`));
    const pidsFile = join(mkdtempSync(join(tmpdir(), 'check-endpoint-watch-pids-')), 'pids');
    temporary.push(folder, join(pidsFile, '..'));
    writeFileSync(join(folder, 'agent.mjs'), agentSource(version));
    return { folder, pidsFile, pids: (): number[] => readFileSync(pidsFile, 'utf8').trim().split('\n').map(Number) };
  }

  test('the fix shows as fixed, by its name, from a new agent process; a crash keeps it watching; q ends it with the last exit code and no agent left', async () => {
    const { folder, pidsFile, pids } = agentFolder('watch', 'null image');
    const port = await freePort();
    const watch = startWatching(folder, [`http://127.0.0.1:${port}/agent`, '--watch', '--start', 'node agent.mjs', '--case', 'typed'], {
      PORT: String(port),
      PIDS_FILE: pidsFile,
    });

    let at = await watch.waitFor(/^0 of 1 case passed\.$/m);
    assert.match(watch.output(), /^problem 1  ✗ schema  \/replies\/0  image is null/m);
    at = await watch.waitFor(WATCHING, at);
    const [firstAgent] = pids();
    assert.equal(alive(firstAgent!), false, 'the first run stopped its agent');

    // The developer fixes the agent and saves.
    writeFileSync(join(folder, 'agent.mjs'), agentSource('fixed'));
    at = await watch.waitFor(/^--watch: agent\.mjs changed: checking again, what did not pass first$/m, at);
    at = await watch.waitFor(/^--failed-first: playing first the 1 of 1 cases that did not pass in the last run .*: whatsapp\/typed$/m, at);
    at = await watch.waitFor(/^1 of 1 case passed\.$/m, at);
    at = await watch.waitFor(/^since the last run: fixed: schema \/replies\/0 on whatsapp \(image is null; .*\)$/m, at);
    const agents = pids();
    assert.equal(agents.length, 2, 'one agent a run');
    assert.notEqual(agents[1], firstAgent, 'the fixed code ran in a new agent process');
    at = await watch.waitFor(WATCHING, at);

    // A save that breaks the start: its last lines, and it keeps watching.
    writeFileSync(join(folder, 'agent.mjs'), agentSource('crashes'));
    at = await watch.waitFor(/boom: cannot read the menu/, at);
    at = await watch.waitFor(/^--watch: this run played no case: nothing to compare with the last one$/m, at);
    at = await watch.waitFor(WATCHING, at);

    // Fixed again; then Enter plays again at once.
    writeFileSync(join(folder, 'agent.mjs'), agentSource('fixed'));
    at = await watch.waitFor(/^1 of 1 case passed\.$/m, at);
    at = await watch.waitFor(/^since the last run: no problem then, none now$/m, at);
    at = await watch.waitFor(WATCHING, at);
    await playAgain(watch, '\n', at);

    watch.child.stdin.write('q\n');
    assert.equal(await watch.exited, 0, "q ends it with the last run's exit code");
    assert.equal(pids().length, 4, 'one agent for each run that started one');
    assert.deepEqual(
      pids().filter((pid) => alive(pid)),
      [],
      'no agent left running',
    );
  });

  test('three problems, one fixed: the changes line names the fixed one and the two left by their names, as the run before named them', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-watch-menu-'));
    temporary.push(folder);
    writeFileSync(join(folder, 'agent.mjs'), menuAgentSource('three defects'));
    const port = await freePort();
    const args = [`http://127.0.0.1:${port}/agent`, '--case', 'typed', '--channel', 'whatsapp', '--channel', 'sms'];
    const watch = startWatching(folder, [...args, '--watch', '--start', 'node agent.mjs'], { PORT: String(port) });
    let at = await watch.waitFor(/^0 of 2 cases passed\.$/m);
    at = await watch.waitFor(WATCHING, at);
    // The names the first run gave its three problems, from its record.
    const before = readLastRunSync(folder);
    const names = recordedProblems(before).map((problem) => problem.name);
    assert.equal(names.length, 3, `three problems: ${names.join('; ')}`);
    const button = names.find((name) => name.startsWith('platform /replies/0/list/button'));
    assert.equal(button, 'platform /replies/0/list/button on whatsapp');
    const left = names.filter((name) => name !== button);
    assert.ok(left.includes('platform /replies/0/buttons on sms'), left.join('; '));

    writeFileSync(join(folder, 'agent.mjs'), menuAgentSource('button fixed'));
    at = await watch.waitFor(/^since the last run: .*$/m, at);
    const line = /^since the last run: .*$/m.exec(watch.output().slice(0, at).split('\n').slice(-1)[0] ?? '')?.[0] ?? '';
    const [fixed, still] = line.replace('since the last run: ', '').split(' · ');
    assert.match(fixed!, /^fixed: platform \/replies\/0\/list\/button on whatsapp \(/);
    const stillNames = still!
      .replace(/^still: /, '')
      .split(/, (?=platform|schema)/)
      .map((named) => named.replace(/ \(problem \d\)$/, ''));
    assert.deepEqual(stillNames.sort(), [...left].sort(), line);
    assert.equal(line.includes('new:'), false, line);
    watch.child.stdin.write('q\n');
    assert.equal(await watch.exited, 1);
  });

  test('without --start (a URL without a scheme): a change waits for the agent to restart itself, then checks the new one; q with a failing last run exits 1', async () => {
    // A server with its own reloader, as uvicorn --reload is: on a change to src/ the old server goes down at
    // once, and 1.5 s later a new one reads the reply anew and listens (the check's probe, after the 200 ms of
    // quiet, finds it down whatever the machine's load, and its --wait sees the new one come up).
    const { agent, folder, port } = await startReloadingAgent('reload', 'stop(); setTimeout(reloaded, 1500);');
    temporary.push(folder);
    try {
      // Given as a developer types it, without a scheme: probed as the check reads it, http://.
      const watch = startWatching(folder, [`localhost:${port}/agent`, '--watch', '--case', 'typed', '--wait', '10'], {});
      let at = await watch.waitFor(/^1 of 1 case passed\.$/m);
      at = await watch.waitFor(WATCHING, at);
      writeFileSync(join(folder, 'src/reply.txt'), 'null, and a link of null');
      at = await watch.waitFor(/^--watch: src\/reply\.txt changed: waiting for the agent's own reload$/m, at);
      at = await watch.waitFor(/^0 of 1 case passed\.$/m, at);
      assert.doesNotMatch(watch.output(), /kept answering/, 'the probe saw the agent go down');
      at = await watch.waitFor(/^since the last run: new: schema \/replies\/0 on whatsapp \(problem 1\)$/m, at);
      await watch.waitFor(WATCHING, at);
      watch.child.stdin.write('q\n');
      assert.equal(await watch.exited, 1, "the last run's exit code");
    } finally {
      agent.kill();
    }
  });

  test(
    'on a terminal it reads keys: Enter plays again, q quits without a newline; SIGHUP (the terminal closed) ends it too, no agent left',
    { skip: SCRIPT === undefined ? 'no script(1) (util-linux) here to give the watch a terminal' : false },
    async () => {
      const { folder, pidsFile, pids } = agentFolder('watch-tty', 'fixed');
      const port = await freePort();
      const args = [`http://127.0.0.1:${port}/agent`, '--watch', '--start', 'node agent.mjs', '--case', 'typed'];
      const env = { PORT: String(port), PIDS_FILE: pidsFile };
      const watch = startWatching(folder, args, env, true);
      let at = await watch.waitFor(/^1 of 1 case passed\.$/m);
      at = await watch.waitFor(WATCHING, at);
      await playAgain(watch, '\r', at);
      watch.child.stdin.write('q');
      assert.equal(await watch.exited, 0, watch.output());

      const hungUp = startWatching(folder, args, env);
      await hungUp.waitFor(WATCHING, await hungUp.waitFor(/^1 of 1 case passed\.$/m));
      hungUp.child.kill('SIGHUP');
      assert.equal(await hungUp.exited, 0, "SIGHUP ends it with the last run's exit code");
      assert.equal(pids().length, 3, 'one agent a run');
      assert.deepEqual(
        pids().filter((pid) => alive(pid)),
        [],
        'no agent left running',
      );
    },
  );

  /** How many runs the output shows (each prints its summary line). */
  const runsIn = (output: string): number => output.match(/^1 of 1 case passed\.$/gm)?.length ?? 0;

  test('an agent that writes into its own folder: played once more with a note, then that file is left out, and an edit still plays', async () => {
    const { folder, pidsFile } = agentFolder('watch-writes', 'logs');
    const port = await freePort();
    const watch = startWatching(folder, [`http://127.0.0.1:${port}/agent`, '--watch', '--start', 'node agent.mjs', '--case', 'typed'], {
      PORT: String(port),
      PIDS_FILE: pidsFile,
    });
    let at = await watch.waitFor(WATCHING);
    // The first run's request was logged: taken for the agent's writing, it is played once more, with a note.
    at = await watch.waitFor(
      /^--watch: conversations\.jsonl changed while the check played; if the agent writes it, --watch-ignore conversations\.jsonl or a \.gitignore line leaves it out$/m,
      at,
    );
    at = await watch.waitFor(/^--watch: conversations\.jsonl changed: checking again, what did not pass first$/m, at);
    // That run logs again: left out from now on, and no third run for it.
    at = await watch.waitFor(
      /^--watch: conversations\.jsonl changed while each of the last two runs played: the agent writes it, left out from now on; Enter plays again and watches it again \(--watch-ignore conversations\.jsonl, or a \.gitignore line, leaves it out from the start\)$/m,
      at,
    );
    at = await watch.waitFor(WATCHING, at);
    // The developer's edit still plays.
    writeFileSync(join(folder, 'agent.mjs'), agentSource('logs') + '// reworded\n');
    at = await watch.waitFor(/^--watch: agent\.mjs changed: checking again, what did not pass first$/m, at);
    await watch.waitFor(WATCHING, at);
    watch.child.stdin.write('q\n');
    assert.equal(await watch.exited, 0, watch.output());
    assert.equal(runsIn(watch.output()), 3, `the first run, the one for the log, the edit's:\n${watch.output()}`);
    assert.equal(watch.output().match(/conversations\.jsonl changed: checking again/g)?.length, 1, watch.output());
    assert.ok(readFileSync(join(folder, 'conversations.jsonl'), 'utf8').split('\n').length > 3, 'the agent logged every run');
  });

  test('links to a folder already watched (ln -s . a; ln -s . b) are not followed, said once; the loop starts and an edit plays', async () => {
    const { folder, pidsFile } = agentFolder('watch-links', 'fixed');
    symlinkSync('.', join(folder, 'a'));
    symlinkSync('.', join(folder, 'b'));
    mkdirSync(join(folder, 'src'));
    symlinkSync('..', join(folder, 'src', 'up'));
    const port = await freePort();
    const args = [`http://127.0.0.1:${port}/agent`, '--watch', '--start', 'node agent.mjs', '--case', 'typed'];
    const watch = startWatching(folder, args, { PORT: String(port), PIDS_FILE: pidsFile });
    // The old loop walked a/b/a/b/… until it ran out of memory, and never said it was watching.
    let at = await watch.waitFor(WATCHING, 0, 20_000);
    const notes = watch.output().match(/^--watch: .*not followed.*$/gm) ?? [];
    assert.deepEqual(notes, ['--watch: a, b and src/up link to a folder already watched: not followed'], watch.output());
    writeFileSync(join(folder, 'agent.mjs'), agentSource('fixed') + '// reworded\n');
    at = await watch.waitFor(/^--watch: agent\.mjs changed: checking again, what did not pass first$/m, at);
    await watch.waitFor(WATCHING, at);
    watch.child.stdin.write('q\n');
    assert.equal(await watch.exited, 0, watch.output());
  });

  test("a parent repository's .gitignore of * leaves out every file: the loop says so, and by which file", async () => {
    const parent = mkdtempSync(join(tmpdir(), 'check-endpoint-watch-parent-'));
    temporary.push(parent);
    mkdirSync(join(parent, '.git'));
    writeFileSync(join(parent, '.gitignore'), '*\n');
    const folder = join(parent, 'agent');
    mkdirSync(folder);
    writeFileSync(join(folder, 'agent.mjs'), agentSource('fixed'));
    const pidsFile = join(parent, 'pids');
    const port = await freePort();
    const args = [`http://127.0.0.1:${port}/agent`, '--watch', '--start', 'node agent.mjs', '--case', 'typed'];
    const watch = startWatching(folder, args, { PORT: String(port), PIDS_FILE: pidsFile });
    await watch.waitFor(WATCHING, await watch.waitFor(/^1 of 1 case passed\.$/m));
    assert.match(
      watch.output(),
      new RegExp(
        `^--watch: every file in \\S+ is left out \\(by ${parent.replaceAll('/', '\\/')}\\/\\.gitignore\\): no save will start a run`,
        'm',
      ),
    );
    watch.child.stdin.write('q\n');
    assert.equal(await watch.exited, 0, watch.output());
  });

  test('the watched folder deleted, or renamed away: said as soon as it happens, with no key pressed, and the loop ends with exit 2', async () => {
    for (const how of ['deleted', 'renamed'] as const) {
      const { folder, pidsFile } = agentFolder(`watch-gone-${how}`, 'fixed');
      const port = await freePort();
      const args = [`http://127.0.0.1:${port}/agent`, '--watch', '--start', 'node agent.mjs', '--case', 'typed'];
      const watch = startWatching(folder, args, { PORT: String(port), PIDS_FILE: pidsFile });
      let at = await watch.waitFor(WATCHING);
      at = await watch.waitFor(/^1 of 1 case passed\.$/m);
      at = await watch.waitFor(WATCHING, at);
      if (how === 'deleted') rmSync(folder, { recursive: true, force: true });
      else {
        renameSync(folder, `${folder}-moved`);
        temporary.push(`${folder}-moved`);
      }
      // No Enter, no save: the loop sees it by itself (a rename sends no event for the files in the folder).
      await watch.waitFor(
        /^check-endpoint: --watch: \S+ was deleted or renamed away while the loop watched it: nothing is left to watch and no run can start there, so the loop ends \(exit 2\); start --watch again in the agent's folder$/m,
        at,
      );
      assert.equal(await watch.exited, 2, watch.output());
      assert.doesNotMatch(watch.output(), /uv_cwd|ENOENT|this run played no case/, how);
      assert.equal(watch.output().split('was deleted or renamed away').length - 1, 1, `${how}: said once:\n${watch.output()}`);
      assert.equal(runsIn(watch.output()), 1, `${how}: only the first run:\n${watch.output()}`);
    }
  });

  test("what the agent's .gitignore or --watch-ignore leaves out starts no run; an edit still plays", async () => {
    for (const [name, setUp, extra] of [
      ['gitignore', (folder: string) => writeFileSync(join(folder, '.gitignore'), '# what the agent writes\n*.jsonl\n'), []],
      ['watch-ignore', () => {}, ['--watch-ignore', '*.log', '--watch-ignore', 'conversations.jsonl']],
    ] as const) {
      const { folder, pidsFile } = agentFolder(`watch-${name}`, 'logs');
      setUp(folder);
      const port = await freePort();
      const args = [`http://127.0.0.1:${port}/agent`, '--watch', '--start', 'node agent.mjs', '--case', 'typed', ...extra];
      const watch = startWatching(folder, args, { PORT: String(port), PIDS_FILE: pidsFile });
      let at = await playAgain(watch, '\n', await watch.waitFor(WATCHING));
      writeFileSync(join(folder, 'agent.mjs'), agentSource('logs') + '// reworded\n');
      at = await watch.waitFor(/^--watch: agent\.mjs changed: checking again, what did not pass first$/m, at);
      await watch.waitFor(WATCHING, at);
      watch.child.stdin.write('q\n');
      assert.equal(await watch.exited, 0, watch.output());
      assert.equal(runsIn(watch.output()), 3, `${name}: the first run, Enter's, the edit's:\n${watch.output()}`);
      assert.doesNotMatch(watch.output(), /conversations\.jsonl/, name);
      assert.ok(existsSync(join(folder, 'conversations.jsonl')), `${name}: the agent logged`);
    }
  });

  test('without --start, a reloader that builds first (as air does): checked as it was, then again once the new build answers', async () => {
    // air's order: on a change to src/, build (5 s, the old server answering all along), then stop the old
    // server and start the new one (600 ms later), which reads the reply anew.
    const { agent, folder, port } = await startReloadingAgent('build', 'setTimeout(() => { stop(); setTimeout(reloaded, 600); }, 5000);');
    temporary.push(folder);
    try {
      const watch = startWatching(folder, [`http://127.0.0.1:${port}/agent`, '--watch', '--case', 'typed'], {});
      let at = await watch.waitFor(/^1 of 1 case passed\.$/m);
      at = await watch.waitFor(WATCHING, at);
      writeFileSync(join(folder, 'src/reply.txt'), 'null, and a link of null');
      at = await watch.waitFor(/^--watch: the agent kept answering for 2 s: checking it as it is$/m, at);
      at = await watch.waitFor(/^1 of 1 case passed\.$/m, at);
      at = await watch.waitFor(/^--watch: the agent restarted after that run: checking the new one, once it answers$/m, at);
      at = await watch.waitFor(/^0 of 1 case passed\.$/m, at);
      at = await watch.waitFor(/^since the last run: new: schema \/replies\/0 on whatsapp \(problem 1\)$/m, at);
      await watch.waitFor(WATCHING, at);
      watch.child.stdin.write('q\n');
      assert.equal(await watch.exited, 1, "the last run's exit code");
    } finally {
      agent.kill();
    }
  });

  test('without --start, an agent reached through a proxy (HTTP_PROXY) is probed through it, as the check reaches it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-watch-proxy-'));
    temporary.push(folder);
    writeFileSync(join(folder, 'reply.txt'), 'We open at 8.');
    // An agent that reloads in place (it reads its reply on every request, and never goes down).
    const agent = createServer((request, response) => {
      if (request.method === 'HEAD') return void response.end();
      request.resume().on('end', () => {
        const text = readFileSync(join(folder, 'reply.txt'), 'utf8');
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify({ replies: [text.startsWith('null') ? { type: 'message', text, link: null } : { type: 'message', text }] }),
        );
      });
    });
    // A forward proxy that takes every host to that agent: agent.invalid resolves nowhere else.
    const proxy = createServer((request, response) => {
      const { port } = agent.address() as AddressInfo;
      const upstream = httpRequest(
        { host: '127.0.0.1', port, path: new URL(request.url!).pathname, method: request.method, headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on('error', () => response.writeHead(502).end());
      request.pipe(upstream);
    });
    await Promise.all([agent, proxy].map((server) => new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))));
    try {
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const env = { HTTP_PROXY: proxyUrl, http_proxy: undefined, NO_PROXY: undefined, no_proxy: undefined };
      const watch = startWatching(folder, ['http://agent.invalid/agent', '--watch', '--case', 'typed'], env);
      let at = await watch.waitFor(/^1 of 1 case passed\.$/m);
      at = await watch.waitFor(WATCHING, at);
      writeFileSync(join(folder, 'reply.txt'), 'null, and a link of null');
      // A probe of its own, past the proxy, would find nothing at agent.invalid and take it for a reload.
      at = await watch.waitFor(/^--watch: the agent kept answering for 2 s: checking it as it is$/m, at);
      at = await watch.waitFor(/^0 of 1 case passed\.$/m, at);
      await watch.waitFor(WATCHING, at);
      watch.child.stdin.write('q\n');
      assert.equal(await watch.exited, 1, "the last run's exit code");
      assert.doesNotMatch(watch.output(), /the agent restarted after that run/, 'the agent never went down');
    } finally {
      for (const server of [agent, proxy]) {
        server.closeAllConnections();
        server.close();
      }
    }
  });

  test('with --explore, each run plays the conversations the last one kept first: the failure found, then replayed first on Enter', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-watch-explore-'));
    temporary.push(folder);
    // The reference agent, but a tap of an id it never offered is a 500: --explore's message shapes tap one.
    const agent = await serveAgent((request) =>
      request.message.choice?.id === 'chk_never_offered'
        ? new RawResponse(500, '{"error":"no such option"}', { 'content-type': 'application/json' })
        : referenceAnswer(request, bundledContract().platforms.whatsapp),
    );
    try {
      const watch = startWatching(folder, [agent.url, '--watch', '--case', 'explore', '--explore-turns', '40', '--seed', '3'], {});
      let at = await watch.waitFor(/kept in \.check-endpoint\/explore\.json: 1 failing conversation/);
      at = await watch.waitFor(WATCHING, at);
      assert.doesNotMatch(watch.output(), /kept from an earlier run/, 'the first run has nothing kept to play');
      watch.child.stdin.write('\n');
      at = await watch.waitFor(/^--watch: playing again, what did not pass first$/m, at);
      at = await watch.waitFor(/kept from an earlier run \(status, 1 message\): fails still/, at);
      await watch.waitFor(WATCHING, at);
      watch.child.stdin.write('q\n');
      assert.equal(await watch.exited, 1, watch.output());
    } finally {
      await agent.close();
    }
  });

  test('a bad combination says so, exit 2: --json, --failed, a --watch-dir that is not a folder, --watch-dir alone, a URL it cannot check', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-watch-usage-'));
    temporary.push(folder);
    const agent = await startReferenceAgent();
    try {
      // A run recorded in the folder: --failed reads it as the command line is read.
      assert.equal(await startWatching(folder, [agent.url, '--case', 'typed'], {}).exited, 0);
      for (const [args, message] of [
        [[agent.url, '--watch', '--json'], '--watch prints run after run for people; --json prints one run as JSON: give one of them'],
        [
          [agent.url, '--watch', '--failed'],
          '--watch plays every case, what did not pass first (--failed-first); --failed plays only those: leave --failed out',
        ],
        [[agent.url, '--watch', '--watch-dir', 'nowhere'], '--watch-dir: nowhere is not a folder'],
        [[agent.url, '--watch-dir', '.'], '--watch-dir goes with --watch'],
        [[agent.url, '--watch', '--report-dir', '.'], '--watch: the reports go to '],
        // The URL is read before anything is watched.
        [['ftp://127.0.0.1/agent', '--watch'], "the URL's scheme is ftp; check-endpoint speaks http and https only"],
      ] as const) {
        const run = startWatching(folder, [...args], {});
        assert.equal(await run.exited, 2, run.output());
        assert.ok(run.output().includes(`check-endpoint: ${message}`), run.output());
      }
    } finally {
      await agent.close();
    }
  });
});

describe('a config file that says "watch": true, in CI', () => {
  test('checks once and says so, instead of watching until the job times out', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-watch-ci-'));
    const agent = await startReferenceAgent();
    try {
      writeFileSync(join(folder, 'check-endpoint.config.json'), JSON.stringify({ url: agent.url, watch: true, case: ['typed'] }));
      const run = startWatching(folder, [], { CI: 'true' });
      assert.equal(await run.exited, 0, run.output());
      assert.match(run.output(), /^check-endpoint: check-endpoint\.config\.json: "watch" is left out in CI \(CI=true\): checking once$/m);
      assert.match(run.output(), /^1 of 1 case passed\.$/m);
      assert.doesNotMatch(run.output(), /--watch: watching/);
    } finally {
      await agent.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("--watch's pure parts", () => {
  test("a run's words: the command line's without --watch and --watch-dir, with --no-watch and --failed-first (and --wait for a reload)", () => {
    assert.deepEqual(runWords(['http://x/agent', '--watch', '--watch-dir', 'src', '--case', 'typed', '--watch-dir=app'], false), [
      'http://x/agent',
      '--case',
      'typed',
      '--no-watch',
      '--failed-first',
    ]);
    assert.deepEqual(runWords(['http://x/agent', '--watch'], true), ['http://x/agent', '--no-watch', '--failed-first', '--wait', '30']);
    assert.deepEqual(runWords(['http://x/agent', '--watch', '--watch-ignore', '*.jsonl', '--watch-ignore=logs/'], false), [
      'http://x/agent',
      '--no-watch',
      '--failed-first',
    ]);
    // After --, every word is an argument: the flags go before it.
    assert.deepEqual(runWords(['--watch', '--case', 'typed', '--', 'http://x/agent'], false), [
      '--case',
      'typed',
      '--no-watch',
      '--failed-first',
      '--',
      'http://x/agent',
    ]);
  });

  const problem = (id: string, number: number, message: string): ProblemReport => ({
    id,
    number,
    name: `schema /replies/0 ${id}`,
    rule: 'schema',
    severity: 'error',
    path: '/replies/0',
    message,
    hint: null,
    findings: 1,
    cases: 1,
    where: [],
    example: { case: 'typed', channel: 'whatsapp', turn: 0, reply: 0, path: '/replies/0' },
  });

  test('what changed between two runs: each problem by its name, the same in both runs; new and still with their number on the screen', () => {
    const before = [problem('a', 1, 'image is null'), problem('b', 2, 'unknown property "quickReplies"')];
    const now = [problem('b', 1, 'unknown property "quickReplies"'), problem('c', 2, 'text is empty')];
    assert.equal(
      formatProblemChanges(problemChanges(before, now), NO_COLOURS),
      'since the last run: fixed: schema /replies/0 a (image is null) · new: schema /replies/0 c (problem 2) · still: schema /replies/0 b (problem 1)',
    );
    assert.equal(formatProblemChanges(problemChanges([], []), NO_COLOURS), 'since the last run: no problem then, none now');
    // Gone only because its case was not played this time (the agent crashed first): not checked, never fixed.
    const onPhoto = { ...problem('a', 1, 'image is null'), where: [{ case: 'photo', channel: 'whatsapp', turns: [0] }] };
    const onTyped = { ...problem('b', 2, 'text is empty'), where: [{ case: 'typed', channel: 'whatsapp', turns: [0] }] };
    assert.equal(
      formatProblemChanges(problemChanges([onPhoto, onTyped], [], [{ case: 'typed', channel: 'whatsapp' }]), NO_COLOURS),
      'since the last run: fixed: schema /replies/0 b (text is empty) · not checked (a case it came on was not played): schema /replies/0 a',
    );
    // A name an agent wrote into (a property's name is in its pointer) is shown, never obeyed: its control characters escaped.
    const named = { ...problem('d', 1, 'unknown property'), name: 'schema /replies/0/\u001b[31mred on web' };
    assert.match(formatProblemChanges(problemChanges([], [named]), NO_COLOURS), /\\u001b\[31mred/);
  });

  test('the paths it leaves out: version control, dependencies, caches, virtual environments, build outputs, files no edit is, and the reports', () => {
    const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-watch-paths-'));
    try {
      mkdirSync(join(folder, 'env-3.12'));
      writeFileSync(join(folder, 'env-3.12/pyvenv.cfg'), 'home = /usr/bin\n');
      const reports = join(folder, 'out');
      for (const path of [
        '.git',
        'node_modules',
        'app/__pycache__',
        '.venv',
        'env-3.12',
        '.check-endpoint',
        'agent.py.swp',
        '.junit.xml.28762.2d08b637f5aa.tmp',
        'agent.py~',
        '4913',
        'app.log',
        'db.sqlite3',
        'db.sqlite3-journal',
        'out',
        'out/report.json',
        'tmp',
        'target',
        'dist',
        'build',
        '.next',
        'vendor',
      ]) {
        assert.equal(leftOut(join(folder, path), folder, [reports]), true, path);
      }
      for (const path of [
        'agent.py',
        'main.go',
        'src/app.ts',
        'prompts/system.md',
        'outline.txt',
        '.env',
        'environment',
        'templates',
        'cmd/server/main.go',
        // Build-output names deeper down may hold source.
        'src/build',
        'app/tmp/prompt.txt',
      ]) {
        assert.equal(leftOut(join(folder, path), folder, [reports]), false, path);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test("what the agent's .gitignore files and --watch-ignore leave out, as git reads them", () => {
    const repository = mkdtempSync(join(tmpdir(), 'check-endpoint-watch-gitignore-'));
    try {
      // The agent in a folder of a repository whose top leaves out logs and data/ but keeps keep.log.
      mkdirSync(join(repository, '.git/info'), { recursive: true });
      writeFileSync(join(repository, '.gitignore'), '*.log\n!keep.log\ndata/\n/top-only.txt\n');
      writeFileSync(join(repository, '.git/info/exclude'), 'scratch.md\n');
      const agent = join(repository, 'agent');
      mkdirSync(join(agent, 'uploads/kept'), { recursive: true });
      mkdirSync(join(agent, 'data'));
      // The agent folder's own: uploads left out, but for its kept/ folder; a file named data is not a folder.
      writeFileSync(join(agent, '.gitignore'), 'uploads/*\n!uploads/kept/\n');
      writeFileSync(join(agent, 'notes'), '');
      const rules = ignoreRules(makeIgnore, agent, ['*.jsonl', 'cache/']);
      for (const path of ['app.log', 'src/app.log', 'data', 'uploads/photo.jpg', 'scratch.md', 'conversations.jsonl', 'cache']) {
        assert.equal(rules.ignores(join(agent, path), path === 'cache' ? true : undefined), true, path);
      }
      for (const path of ['agent.py', 'keep.log', 'top-only.txt', 'uploads/kept', 'notes', 'src/cache.py', 'cache']) {
        assert.equal(rules.ignores(join(agent, path), path === 'cache' ? false : undefined), false, path);
      }
      // Outside a repository, the watched folder's own .gitignore; and it is read again once forgotten.
      const alone = join(repository, 'agent/uploads/kept');
      writeFileSync(join(alone, '.gitignore'), 'draft.txt\n');
      const aloneRules = ignoreRules(makeIgnore, alone, []);
      assert.equal(aloneRules.ignores(join(alone, 'draft.txt')), true);
      writeFileSync(join(alone, '.gitignore'), '');
      assert.equal(aloneRules.ignores(join(alone, 'draft.txt')), true, 'read once');
      aloneRules.forget(alone);
      assert.equal(aloneRules.ignores(join(alone, 'draft.txt')), false, 'read again');
    } finally {
      rmSync(repository, { recursive: true, force: true });
    }
  });

  test("its verdicts are git's own: every path as `git check-ignore` reads it, watching the top of a repository and a folder in it", () => {
    const repository = mkdtempSync(join(tmpdir(), 'check-endpoint-watch-check-ignore-'));
    try {
      execFileSync('git', ['init', '-q'], { cwd: repository });
      // The rules that trip a matcher of one's own: negation, anchoring, folders only, **, escapes, a trailing space, a deeper .gitignore.
      writeFileSync(
        join(repository, '.gitignore'),
        '*.log\n!keep.log\ndata/\n/top-only.txt\n**/tmp/**\n\\#hash\ntrailing \nuploads/*\n!uploads/kept/\n',
      );
      writeFileSync(join(repository, '.git/info/exclude'), 'scratch.md\n');
      const files = [
        ...['a.log', 'keep.log', 'data/x', 'top-only.txt', '#hash', 'trailing', 'scratch.md', 'uploads/p.jpg', 'uploads/kept/k.jpg'],
        ...[
          'agent/b.log',
          'agent/keep.log',
          'agent/top-only.txt',
          'agent/tmp/x/y',
          'agent/sub/a.txt',
          'agent/sub/important.txt',
          'agent/data/y',
        ],
        ...['agent/main.py', 'agent/data.py', 'agent/uploads/u.jpg'],
      ];
      for (const file of files) {
        mkdirSync(join(repository, file, '..'), { recursive: true });
        writeFileSync(join(repository, file), '');
      }
      writeFileSync(join(repository, 'agent/.gitignore'), 'sub/*.txt\n!sub/important.txt\n');
      const ignoredByGit = new Set(
        execFileSync('git', ['check-ignore', '--stdin'], { cwd: repository, input: files.join('\n'), encoding: 'utf8' }).split('\n'),
      );
      for (const watched of ['.', 'agent']) {
        const root = join(repository, watched);
        const rules = ignoreRules(makeIgnore, root, []);
        for (const file of files.filter((path) => watched === '.' || path.startsWith(`${watched}/`))) {
          assert.equal(rules.ignores(join(repository, file)), ignoredByGit.has(file), `${file}, watching ${watched}`);
        }
      }
      assert.ok(
        ignoredByGit.has('agent/sub/a.txt') && !ignoredByGit.has('agent/sub/important.txt'),
        'the deeper .gitignore was read by git',
      );
    } finally {
      rmSync(repository, { recursive: true, force: true });
    }
  });

  test('two saves while one slow run plays are one burst: the file is not left out, and the next save plays', () => {
    const writes = agentWrites();
    writes.playing(0);
    assert.deepEqual(writes.sort(['main.go'], 10).files, ['main.go']);
    const second = writes.sort(['main.go'], 2000);
    assert.deepEqual(second, { files: ['main.go'], notes: [] }, 'the same run: no second note, nothing left out');
    writes.played(4000);
    assert.deepEqual(writes.sort(['main.go'], 5000).files, ['main.go'], 'a later save plays');
  });

  test('a file git tracks is never taken for what the agent writes, even changed while two runs in a row played', () => {
    const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-watch-git-'));
    after(() => rmSync(folder, { recursive: true, force: true }));
    execFileSync('git', ['init', '-q'], { cwd: folder });
    writeFileSync(join(folder, 'main.go'), 'package main\n');
    writeFileSync(join(folder, 'log.jsonl'), '');
    execFileSync('git', ['add', 'main.go'], { cwd: folder });
    const writes = agentWrites(gitTracked(folder));
    writes.playing(0);
    assert.deepEqual(writes.sort(['main.go', 'log.jsonl'], 10).notes, [
      '--watch: log.jsonl changed while the check played; if the agent writes it, --watch-ignore log.jsonl or a .gitignore line leaves it out',
    ]);
    writes.played(100);
    writes.playing(200);
    const again = writes.sort(['main.go', 'log.jsonl'], 210);
    assert.deepEqual(again.files, ['main.go'], 'main.go, tracked, plays; log.jsonl is left out');
    writes.played(300);
    assert.deepEqual(writes.sort(['main.go'], 400).files, ['main.go']);
  });

  test('what was left out is watched again once Enter plays, and the note said so', () => {
    const writes = agentWrites();
    writes.playing(0);
    writes.sort(['log.jsonl'], 10);
    writes.played(100);
    writes.playing(200);
    const { notes } = writes.sort(['log.jsonl'], 210);
    assert.match(notes[0]!, /left out from now on; Enter plays again and watches it again/);
    writes.played(300);
    assert.deepEqual(writes.sort(['log.jsonl'], 400).files, [], 'left out');
    assert.equal(writes.watchAgain(), '--watch: watching log.jsonl again');
    assert.deepEqual(writes.sort(['log.jsonl'], 500).files, ['log.jsonl'], 'watched again');
    assert.equal(writes.watchAgain(), undefined, 'nothing left out: nothing to say');
  });

  test('changes while a run played: played once with a note, left out when they come during the next run too; any other change plays', () => {
    const writes = agentWrites();
    assert.deepEqual(writes.sort(['agent.py'], 50), { files: ['agent.py'], notes: [] }, 'before any run');
    writes.playing(100);
    const during = writes.sort(['conversations.jsonl'], 150);
    assert.deepEqual(during.files, ['conversations.jsonl']);
    assert.match(during.notes[0]!, /^--watch: conversations\.jsonl changed while the check played; if the agent writes it/);
    writes.played(200);
    writes.playing(300);
    const again = writes.sort(['conversations.jsonl', 'agent.py'], 310);
    assert.deepEqual(again.files, ['agent.py'], 'an edit in the same burst still plays');
    assert.match(
      again.notes[0]!,
      /^--watch: conversations\.jsonl changed while each of the last two runs played: the agent writes it, left out from now on/,
    );
    writes.played(400);
    assert.deepEqual(writes.sort(['conversations.jsonl'], 500), { files: [], notes: [] }, 'left out from then on');
    // agent.py came during a run once, then after one: never left out.
    assert.deepEqual(writes.sort(['agent.py'], 600), { files: ['agent.py'], notes: [] });
    writes.playing(700);
    assert.deepEqual(writes.sort(['agent.py'], 710).files, ['agent.py']);
    writes.played(800);
    writes.sort(['agent.py'], 900);
    writes.playing(1000);
    assert.deepEqual(writes.sort(['agent.py'], 1010).files, ['agent.py'], 'a change between the runs clears the suspicion');
  });
});
