/**
 * --explore, end to end and in its parts: every request it generates is one the request schema
 * takes and a platform could deliver; the same seed gives the same requests; failures shrink to the
 * smallest conversation; kept conversations are played first, and alone by --failed; bad flags,
 * a hostile kept file, an interrupted run and an agent that dies mid-exploration each end as documented.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { Reply } from '../src/core/answer.js';
import type { AgentRequest, PersonMessage } from '../src/core/request.js';
import { type CaseReport, type Report, checkEndpoint } from '../src/index.js';
import { createAjv } from '../src/contract/ajv.js';
import { bundledContract } from '../src/contract/load-contract.js';
import { referenceAnswer } from '../src/example-agent/reference-agent.js';
import { RawResponse, serveAgent } from '../src/example-agent/serve-agent.js';
import { stepMessage, type ExploreStep } from '../src/cases/explore/explore-step.js';
import { messageShapes } from '../src/cases/explore/message-shapes.js';
import { offeredChoices } from '../src/cases/explore/offered-choices.js';
import { Dice } from '../src/cases/explore/random.js';
import { walkLength, walkStep } from '../src/cases/explore/walks.js';
import { shrinkCandidates, shrinkConversation } from '../src/cases/explore/shrink.js';
import type { PlayedTurn } from '../src/cases/explore/play-conversation.js';
import type { PastTurn } from '../src/cases/case.js';
import { spawn } from 'node:child_process';
import { CLI, ROOT, runCli, temporaryFolder } from './helpers.js';
import { thousands } from '../src/core/thousands.js';
import { caseProgressText, createProgress } from '../src/commands/progress.js';
import { formatReportLines } from '../src/report/human.js';
import { renderHtmlReport } from '../src/report/html.js';
import { renderJunit } from '../src/report/junit.js';
import { NO_COLOURS } from '../src/report/colour.js';

const contract = bundledContract();
const ajv = createAjv();
const validateRequest = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'spec/request.schema.json'), 'utf8')));
const validateReport = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'spec/report.schema.json'), 'utf8')));

function reference(request: AgentRequest): ReturnType<typeof referenceAnswer> {
  return referenceAnswer(request, Object.hasOwn(contract.platforms, request.channel) ? contract.platforms[request.channel] : undefined);
}

/** Whether a message is valid Unicode all through (no lone surrogate in any string). */
function wellFormed(value: unknown): boolean {
  if (typeof value === 'string') return value.isWellFormed();
  if (Array.isArray(value)) return value.every(wellFormed);
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).every(([key, item]) => key.isWellFormed() && wellFormed(item));
  return true;
}

function exploreOf(report: Report, channel = 'whatsapp'): CaseReport & { explore: NonNullable<CaseReport['explore']> } {
  const found = report.cases.find((caseReport) => caseReport.id === 'explore' && caseReport.channel === channel);
  assert.ok(found?.explore, `an explore case on ${channel}`);
  return found as CaseReport & { explore: NonNullable<CaseReport['explore']> };
}

/** Replies as an agent might answer: texts with buttons or a list of arbitrary ids and titles. */
const arbitraryReplies: fc.Arbitrary<Reply[]> = fc.array(
  fc.oneof(
    fc.record({ type: fc.constant('message' as const), text: fc.string({ minLength: 1 }) }),
    fc.record({
      type: fc.constant('message' as const),
      text: fc.string({ minLength: 1 }),
      buttons: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 30, unit: 'grapheme' }), { minLength: 1, maxLength: 3 }),
    }),
    fc.record({
      type: fc.constant('message' as const),
      text: fc.string({ minLength: 1 }),
      list: fc.record({
        button: fc.constant('Choose'),
        sections: fc.array(
          fc.record({
            rows: fc.uniqueArray(fc.record({ id: fc.string({ minLength: 1, unit: 'grapheme' }), title: fc.string({ unit: 'grapheme' }) }), {
              minLength: 1,
              maxLength: 5,
              selector: (row) => row.id,
            }),
          }),
          { minLength: 1, maxLength: 2 },
        ),
      }),
    }),
    fc.record({ type: fc.constant('reaction' as const), emoji: fc.constant('👍'), messageId: fc.constant('p1') }),
  ),
  { maxLength: 3 },
);

describe('the requests --explore generates', () => {
  test('thousands of them, over seeds and any answers, each valid under spec/request.schema.json and valid Unicode', () => {
    let checked = 0;
    fc.assert(
      fc.property(
        fc.nat(),
        fc.constantFrom(...Object.keys(contract.platforms)),
        fc.array(arbitraryReplies, { minLength: 20, maxLength: 20 }),
        (seed, channel, answers) => {
          const dice = Dice.forked(seed, 'walk 0');
          const length = walkLength(dice);
          const played: PlayedTurn[] = [];
          const past: PastTurn[] = [];
          const shapes = messageShapes(contract.platforms[channel]).shapes.flatMap((shape) => shape.steps);
          const steps: ExploreStep[] = [...shapes];
          for (let turn = 0; turn < length; turn++) {
            const step = walkStep(dice, played);
            const made = stepMessage(step, past);
            assert.ok('message' in made, `a walk's step is always playable: ${JSON.stringify(step)}`);
            const message: PersonMessage = made.message;
            const replies = answers[turn]!;
            const messageId = `m${turn + 1}`;
            past.push({ messageId, message, replies, agentMessageIds: replies.map((_, index) => `a${turn + 1}.${index}`) });
            played.push({ step, replies, offered: offeredChoices(replies), failures: new Map() });
            steps.push(step);
            const request = { conversationId: `${channel}:c`, messageId, channel, message };
            assert.ok(validateRequest(request), JSON.stringify(validateRequest.errors));
            assert.ok(wellFormed(request));
            checked++;
          }
          for (const shape of messageShapes(contract.platforms[channel]).shapes) {
            const made = stepMessage(shape.steps[0]!, []);
            if (!('message' in made)) continue;
            assert.ok(
              validateRequest({ conversationId: 'c', messageId: 'm1', channel, message: made.message }),
              JSON.stringify(validateRequest.errors),
            );
            assert.ok(wellFormed(made.message));
            checked++;
          }
          // What shrinking makes of them is valid too.
          for (const candidate of [...shrinkCandidates(steps.slice(0, 4))].slice(0, 20)) {
            for (const step of candidate)
              assert.ok(step.text !== '' || step.files?.length || step.tap, 'a candidate never holds an empty message');
          }
        },
      ),
      { numRuns: 150, seed: 20261207 },
    );
    assert.ok(checked >= 3000, `checked ${checked} requests`);
  });

  test('what a platform cannot deliver is not sent, and said: several files at once only where the platform takes them', () => {
    assert.ok(messageShapes(contract.platforms.whatsapp).notSent.some((line) => line.startsWith('several files')));
    assert.equal(messageShapes(contract.platforms.web).notSent.length, 0);
    const longest = (channel: string): number =>
      Math.max(...messageShapes(contract.platforms[channel]).shapes.map((shape) => Array.from(shape.steps[0]!.text).length));
    for (const [channel, rules] of Object.entries(contract.platforms)) {
      const person = rules.person!;
      assert.equal(longest(channel), person.textMaxLength, `${channel}: the longest text is at its limit`);
      for (const shape of messageShapes(rules).shapes) {
        for (const step of shape.steps) {
          assert.ok((step.files?.length ?? 0) <= person.attachmentsAtOnce!, `${channel}: ${shape.name} sends no more files than it takes`);
          if (step.files?.length)
            assert.ok(Array.from(step.text).length <= person.captionMaxLength!, `${channel}: ${shape.name}'s caption fits`);
        }
      }
    }
  });
});

describe('shrinking', () => {
  const text = (steps: readonly ExploreStep[]): string => steps.map((step) => step.text).join('|');

  test('a text that fails for one character shrinks to that character, conversation and all', async () => {
    const start: ExploreStep[] = [
      { text: 'hi' },
      { text: '', tap: { id: 'menu', title: 'Menu', offeredAt: 1 } },
      { text: 'table for "Sam" please' },
    ];
    const shrunk = await shrinkConversation(
      start,
      async (steps) => ({ play: steps, failsAt: steps.at(-1)!.text.includes('"') ? steps.length : undefined }),
      () => {},
      { maxPlays: 500, maxMs: 60_000 },
      () => false,
    );
    assert.deepEqual(shrunk.smallest?.steps, [{ text: '"' }]);
    assert.equal(shrunk.gaveUp, null);
  });

  test('a failure that needs an earlier tap keeps it, renumbered; a failure that does not come back is flaky', async () => {
    const start: ExploreStep[] = [{ text: 'hi' }, { text: 'menu please' }, { text: '', tap: { id: 'b', title: 'B', offeredAt: 2 } }];
    const shrunk = await shrinkConversation(
      start,
      async (steps) => ({ play: steps, failsAt: steps.at(-1)!.tap?.id === 'b' && steps.length >= 2 ? steps.length : undefined }),
      () => {},
      { maxPlays: 500, maxMs: 60_000 },
      () => false,
    );
    const smallest = shrunk.smallest!.steps;
    assert.equal(smallest.length, 2);
    assert.equal(Array.from(smallest[0]!.text).length, 1, 'the opening text is cut to one character');
    assert.deepEqual(smallest[1], { text: '', tap: { id: 'b', title: 'B', offeredAt: 1 } });
    const flaky = await shrinkConversation(
      start,
      async (steps) => ({ play: steps, failsAt: undefined }),
      () => {},
      { maxPlays: 5, maxMs: 1000 },
      () => false,
    );
    assert.equal(flaky.smallest, undefined);
    assert.deepEqual(flaky.passedReplay, start);
  });

  test('shrinking stops at its bounds and says so', async () => {
    const long: ExploreStep[] = [{ text: 'a'.repeat(4096) + '"' }];
    const shrunk = await shrinkConversation(
      long,
      async (steps) => ({ play: steps, failsAt: steps[0]!.text.includes('"') ? 1 : undefined }),
      () => {},
      { maxPlays: 10, maxMs: 60_000 },
      () => false,
    );
    assert.equal(shrunk.gaveUp, 'stopped at 10 plays');
    assert.equal(shrunk.plays, 10);
    assert.ok(shrunk.smallest!.steps[0]!.text.length < long[0]!.text.length);
  });
});

/** Serves `handler`, recording every request body as received. */
async function recordingAgent(
  handler: (request: AgentRequest) => unknown,
): Promise<{ url: string; bodies: AgentRequest[]; close(): Promise<void> }> {
  const bodies: AgentRequest[] = [];
  const agent = await serveAgent((request) => {
    bodies.push(request);
    return handler(request) as ReturnType<typeof reference>;
  });
  return { url: agent.url, bodies, close: () => agent.close() };
}

/** A run's requests with its run id taken out: what the same seed must make the same. */
function withoutRunId(bodies: readonly AgentRequest[]): string[] {
  return bodies.map((body) => JSON.stringify(body).replace(/chk_[0-9a-f]{8}/g, 'chk_RUN'));
}

describe('--explore against real agents', () => {
  test('the same seed and agent: the same requests, byte for byte, in the same order (one at a time) and the same set (side by side)', async () => {
    const agent = await recordingAgent(reference);
    try {
      const play = async (concurrency: number): Promise<string[]> => {
        agent.bodies.length = 0;
        const report = await checkEndpoint(agent.url, { explore: true, seed: 42, exploreTurns: 200, concurrency, cases: ['explore'] });
        assert.equal(report.outcome, 'passed');
        assert.equal(exploreOf(report).explore.seed, 42);
        return withoutRunId(agent.bodies);
      };
      const first = await play(1);
      assert.equal(first.length, 200);
      assert.deepEqual(await play(1), first);
      const sideBySide = await play(8);
      assert.deepEqual([...sideBySide].sort(), [...first].sort());
      for (const body of agent.bodies) assert.ok(validateRequest(body), JSON.stringify(validateRequest.errors));
    } finally {
      await agent.close();
    }
  });

  test('the reference agent passes --explore on every channel; the report says what it covered and matches its schema', async () => {
    const agent = await recordingAgent(reference);
    try {
      const report = await checkEndpoint(agent.url, { explore: true, channels: ['all'], seed: 7 });
      assert.ok(validateReport(report), JSON.stringify(validateReport.errors));
      assert.equal(report.outcome, 'passed', JSON.stringify(report.problems));
      for (const channel of Object.keys(contract.platforms)) {
        const { explore, turns } = exploreOf(report, channel);
        assert.equal(explore.turns, 300);
        assert.equal(explore.stoppedBy, 'turns');
        assert.equal(turns.length, 0, 'a passing exploration keeps no turns');
        assert.ok(explore.phases.shapes > 20 && explore.phases.crawl > 0 && explore.phases.walks > 0, JSON.stringify(explore.phases));
      }
      assert.ok(exploreOf(report, 'whatsapp').explore.choices.offered > 0);
      for (const body of agent.bodies) {
        assert.ok(validateRequest(body), JSON.stringify(validateRequest.errors));
        assert.ok(wellFormed(body));
      }
    } finally {
      await agent.close();
    }
  });

  test('an agent that writes its JSON by hand and breaks on a quote: found, in the json rule, shrunk to `"`, with nothing else failing', async () => {
    const agent = await recordingAgent((request) =>
      request.message.text.includes('"')
        ? new RawResponse(200, `{"replies":[{"type":"message","text":"You said: ${request.message.text}"}]}`, {
            'content-type': 'application/json',
          })
        : reference(request),
    );
    try {
      const report = await checkEndpoint(agent.url, { explore: true, seed: 3 });
      assert.ok(validateReport(report), JSON.stringify(validateReport.errors));
      const failed = report.cases.filter((caseReport) => caseReport.status === 'failed').map((caseReport) => caseReport.id);
      assert.deepEqual(failed, ['explore']);
      const { explore, turns, findings } = exploreOf(report);
      assert.deepEqual([...new Set(findings.filter((finding) => finding.severity === 'error').map((finding) => finding.rule))], ['json']);
      assert.equal(explore.found.length, 1);
      const [failure] = explore.found;
      assert.deepEqual(failure!.steps, [{ text: '"' }]);
      assert.deepEqual(failure!.described, ['types "\\""']);
      assert.equal(turns[failure!.firstTurn]!.request.message.text, '"');
      assert.match(failure!.replay ?? '', /--case explore --explore-turns 300 --seed 3$/);
      // Every output shows that conversation: the terminal's digest, JUnit, the HTML page.
      const text = formatReportLines(report, NO_COLOURS).join('\n');
      assert.match(
        text,
        /its smallest conversation \(explore on whatsapp\), 1 message \(shrunk from \d+ messages? in \d+ plays?\):\n {8}1\. types "\\""\n {6}replay: /,
      );
      const junit = renderJunit(report, { startedAt: new Date(0) });
      assert.match(junit, /json: its smallest conversation, 1 message\(s\):\n {2}1\. types &quot;\\&quot;&quot;/);
      const page = renderHtmlReport(report);
      assert.match(page, /<strong>json<\/strong>: its smallest conversation, 1 message\(s\), turns 1 to 1 below/);
      assert.match(page, /<li>types &quot;\\&quot;&quot;<\/li>/);
    } finally {
      await agent.close();
    }
  });
});

describe('the command', () => {
  for (const [flags, named] of [
    [['--explore-turns', '0'], '--explore-turns'],
    [['--explore-turns', '-3'], '--explore-turns'],
    [['--explore-turns', '1.5'], '--explore-turns'],
    [['--explore-turns', 'many'], '--explore-turns'],
    [['--seed', 'abc'], '--seed'],
    [['--seed', '-1'], '--seed'],
    [['--seed', '4294967296'], '--seed'],
  ] as const) {
    test(`--explore ${flags.join(' ')}: a usage error naming ${named}, exit 2`, async () => {
      const result = await runCli(['http://127.0.0.1:9/agent', '--explore', ...flags]);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, new RegExp(named));
    });
  }

  test('a config file turns it on and sets its budget and seed, as the flags do', async () => {
    const folder = temporaryFolder('explore-config-');
    writeFileSync(join(folder, 'check-endpoint.config.json'), JSON.stringify({ explore: true, exploreTurns: 20, seed: 5, shrink: false }));
    const agent = await recordingAgent(reference);
    try {
      const result = await runCli([agent.url, '--case', 'explore', '--json'], { cwd: folder });
      assert.equal(result.code, 0, result.stderr);
      const { explore } = exploreOf(JSON.parse(result.stdout) as Report);
      assert.deepEqual([explore.turnBudget, explore.seed, explore.turns], [20, 5, 20]);
      assert.match(result.stdout + result.stderr, /explore: up to 20 turns a channel, seed 5 \(--seed 5 plays the same again\)/);
    } finally {
      await agent.close();
    }
  });

  test('--seed or --no-shrink without --explore: a usage error saying to add it', async () => {
    for (const flag of ['--seed=5', '--no-shrink', '--explore-turns=10']) {
      const result = await runCli(['http://127.0.0.1:9/agent', flag]);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /does not explore: add --explore/);
    }
  });

  test('a found failure is kept, --failed plays exactly its conversation, --no-shrink with --failed is refused, and a hostile kept file is refused', async () => {
    const folder = temporaryFolder('explore-kept-');
    const agent = await recordingAgent((request) =>
      request.message.choice?.id === 'chk_never_offered'
        ? new RawResponse(500, '{"error":"no such option"}', { 'content-type': 'application/json' })
        : reference(request),
    );
    try {
      const first = await runCli([agent.url, '--explore', '--seed', '11', '--json'], { cwd: folder });
      assert.equal(first.code, 1, first.stderr);
      const report = JSON.parse(first.stdout) as Report;
      const [failure] = exploreOf(report).explore.found;
      assert.deepEqual(failure?.steps, [{ text: '', tap: { id: 'chk_never_offered', title: 'Option 9' } }]);
      assert.match(first.stderr, /kept in \.check-endpoint\/explore\.json: 1 failing conversation/);
      const kept = JSON.parse(readFileSync(join(folder, '.check-endpoint/explore.json'), 'utf8')) as {
        conversations: { steps: unknown }[];
      };
      assert.deepEqual(kept.conversations[0]?.steps, failure?.steps);

      const shown = await runCli(['show'], { cwd: folder });
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(shown.stdout, /explore: 1 failing conversation kept in \.check-endpoint\/explore\.json/);
      assert.match(shown.stdout, /whatsapp, status: 1 message\n {4}1\. taps "Option 9" \(id "chk_never_offered"\), never offered/);

      agent.bodies.length = 0;
      const again = await runCli([agent.url, '--failed'], { cwd: folder });
      assert.equal(again.code, 1, again.stderr);
      assert.deepEqual(
        agent.bodies.map((body) => body.message.choice?.id),
        ['chk_never_offered'],
        'only the kept conversation is played',
      );
      assert.match(again.stdout, /kept from an earlier run \(status, 1 message\): fails still/);

      const refused = await runCli([agent.url, '--failed', '--no-shrink'], { cwd: folder });
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /--no-shrink goes with --explore, not --failed/);

      writeFileSync(
        join(folder, '.check-endpoint/explore.json'),
        JSON.stringify({
          version: 1,
          conversations: [{ channel: 'whatsapp', problem: 'p', title: 't', steps: [{ text: 'hi' }], start: 'touch pwned' }],
        }),
      );
      const hostile = await runCli([agent.url, '--explore'], { cwd: folder });
      assert.equal(hostile.code, 2);
      assert.match(
        hostile.stderr,
        /\.check-endpoint\/explore\.json holds a conversation that is not one --explore writes, at \/conversations\/0; delete it/,
      );
    } finally {
      await agent.close();
    }
  });
});

describe('a run that ends early', () => {
  test('interrupted mid-exploration: what was found so far is reported, the case is failed, the run interrupted (exit 130)', async () => {
    const controller = new AbortController();
    let received = 0;
    const agent = await recordingAgent((request) => {
      if (++received === 150) controller.abort('SIGINT');
      return request.message.text.includes('\\') ? new RawResponse(500, '{}', { 'content-type': 'application/json' }) : reference(request);
    });
    try {
      const report = await checkEndpoint(agent.url, { explore: true, seed: 1, cases: ['explore'], signal: controller.signal });
      assert.ok(validateReport(report), JSON.stringify(validateReport.errors));
      assert.equal(report.exitCode, 130);
      const { explore, status } = exploreOf(report);
      assert.equal(status, 'failed');
      assert.equal(explore.stoppedBy, 'halted');
      assert.ok(explore.found.length >= 1);
      assert.ok(explore.turns < 300);
    } finally {
      await agent.close();
    }
  });

  test('an agent that dies mid-exploration: its conversations end once, one finding where it died, the run stopped', async () => {
    let received = 0;
    const holder: { close?: () => Promise<void> } = {};
    const agent = await recordingAgent((request) => {
      if (++received === 40) void holder.close?.();
      return reference(request);
    });
    holder.close = agent.close;
    const report = await checkEndpoint(agent.url, { explore: true, seed: 1, cases: ['explore'] });
    assert.ok(validateReport(report), JSON.stringify(validateReport.errors));
    assert.equal(report.stopped?.reason, 'agent-stopped');
    const { findings } = exploreOf(report);
    assert.equal(findings.filter((finding) => finding.severity === 'error').length, 1, JSON.stringify(findings));
    mkdirSync(tmpdir(), { recursive: true });
  });
});

describe('what is found, kept and played again', () => {
  test('a failure that does not come back when played again is flaky, with both plays in the report', async () => {
    let failedOnce = false;
    const agent = await recordingAgent((request) => {
      if (!failedOnce && request.message.text.includes('"')) {
        failedOnce = true;
        return new RawResponse(500, '{"error":"once"}', { 'content-type': 'application/json' });
      }
      return reference(request);
    });
    try {
      const report = await checkEndpoint(agent.url, { explore: true, seed: 3, cases: ['explore'], concurrency: 1 });
      assert.ok(validateReport(report), JSON.stringify(validateReport.errors));
      const { explore, turns } = exploreOf(report);
      const [failure] = explore.found;
      assert.equal(explore.found.length, 1);
      assert.ok(failure!.flaky, 'said flaky');
      assert.equal(turns[failure!.firstTurn]!.status, 500, 'the failing play');
      assert.equal(turns[failure!.flaky.firstTurn]!.status, 200, 'the play that passed');
      const text = formatReportLines(report, NO_COLOURS).join('\n');
      assert.match(text, /flaky: played again, the same 1 message passed \(both plays are in the report\)/);
    } finally {
      await agent.close();
    }
  });

  test('a kept tap the agent no longer offers ends its replay as "the path changed", not as a failure', async () => {
    const folder = temporaryFolder('explore-changed-');
    mkdirSync(join(folder, '.check-endpoint'));
    const steps = [{ text: 'hi' }, { text: '', tap: { id: 'gone', title: 'Gone option', offeredAt: 1 } }];
    writeFileSync(
      join(folder, '.check-endpoint/explore.json'),
      JSON.stringify({
        version: 1,
        conversations: [{ channel: 'whatsapp', problem: 'status error (the answer)', title: 'status', steps }],
      }),
    );
    const agent = await recordingAgent(reference);
    try {
      const result = await runCli([agent.url, '--case', 'explore', '--explore', '--explore-turns', '30', '--json'], { cwd: folder });
      assert.equal(result.code, 0, result.stderr);
      const { explore } = exploreOf(JSON.parse(result.stdout) as Report);
      assert.deepEqual(explore.kept, [
        {
          problem: 'status error (the answer)',
          title: 'status',
          outcome: 'path-changed',
          note: 'the answer to message 1 no longer offers "Gone option" (id "gone")',
          messages: 2,
        },
      ]);
      assert.match(
        result.stderr,
        /kept from an earlier run \(status, 2 messages\): the path changed: the answer to message 1 no longer offers/,
      );
    } finally {
      await agent.close();
    }
  });

  test('a fetch handler in this process is explored as an agent served over HTTP is', async () => {
    const handler = async (request: Request): Promise<Response> => {
      if (request.method !== 'POST') return new Response(null, { status: 204 });
      const body = (await request.json()) as AgentRequest;
      return body.message.attachments && body.message.text !== ''
        ? new Response('{"error":"captions are not read"}', { status: 500, headers: { 'content-type': 'application/json' } })
        : Response.json(reference(body));
    };
    const report = await checkEndpoint(handler, { explore: true, seed: 8, cases: ['explore'] });
    const { explore } = exploreOf(report);
    assert.equal(explore.found.length, 1);
    const [failure] = explore.found;
    assert.equal(failure!.steps.length, 1);
    assert.ok(failure!.steps[0]!.files?.length === 1 && failure!.steps[0]!.text.length === 1, JSON.stringify(failure!.steps));
    assert.equal(failure!.replay, null, 'no URL to replay a handler at');
  });
});

describe('the progress line', () => {
  test('names the long case, its channel and its turns of the budget; none once it is done', () => {
    assert.equal(
      caseProgressText({ case: 'explore', channel: 'whatsapp', done: 120, total: 300, found: 1 }),
      'explore on whatsapp: 120 of 300 turns, 1 found',
    );
    assert.equal(caseProgressText({ case: 'explore', channel: 'web', done: 300, total: 300, found: 0 }), undefined);
    const written: string[] = [];
    const stream = { isTTY: true, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream;
    const progress = createProgress(stream, {});
    progress.update(5, 6, 0);
    progress.detail('explore on whatsapp: 120 of 300 turns');
    // Redrawn at most every 100 ms; the last play's end always is.
    progress.update(6, 6, 0);
    assert.match(written.at(-1)!, /^\r\u001b\[2K6 of 6 plays · 0 failed · 0s · explore on whatsapp: 120 of 300 turns$/);
  });
});

describe('Ctrl-C during --explore', () => {
  test('prints what was found so far, keeps it and writes the record, exit 130', async () => {
    const folder = temporaryFolder('explore-sigint-');
    let received = 0;
    let interrupt: () => void = () => {};
    const agent = await recordingAgent((request) => {
      if (++received === 120) interrupt();
      return request.message.text.includes('\\') ? new RawResponse(500, '{}', { 'content-type': 'application/json' }) : reference(request);
    });
    try {
      const child = spawn(
        process.execPath,
        [CLI, agent.url, '--case', 'explore', '--explore', '--seed', '1', '--explore-turns', '100000'],
        {
          cwd: folder,
          env: { ...process.env, NO_COLOR: '1' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      interrupt = () => child.kill('SIGINT');
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.equal(code, 130, stdout);
      assert.match(stdout, /its smallest conversation \(explore on whatsapp\), 1 message/);
      assert.match(stdout, /stopped early: the run was halted/);
      const record = JSON.parse(readFileSync(join(folder, '.check-endpoint/last-run.json'), 'utf8')) as { outcome: string };
      assert.equal(record.outcome, 'interrupted');
      const kept = JSON.parse(readFileSync(join(folder, '.check-endpoint/explore.json'), 'utf8')) as { conversations: unknown[] };
      assert.equal(kept.conversations.length, 1);
    } finally {
      await agent.close();
    }
  });
});

describe('thousands', () => {
  test('groups a whole number as en-US does, without Intl', () => {
    for (const value of [0, 7, 999, 1000, 4096, 100_000, 4_294_967_295, -1_234_567])
      assert.equal(thousands(value), value.toLocaleString('en-US'));
  });
});
