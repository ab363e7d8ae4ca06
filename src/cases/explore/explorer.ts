/**
 * --explore on one channel: the conversations kept from earlier runs first, then three phases under
 * one budget of messages (message shapes, the crawl, walks), every answer judged by every common
 * rule; then each distinct problem found shrunk to its smallest conversation. Only the failing
 * conversations stay in the case's report; the rest are counted.
 */
import type { Finding } from '../../core/findings.js';
import { inParallel, runPooled } from '../../core/pool.js';
import { problemId } from '../../core/problems.js';
import type { ExploreReport, ExploredFailure, KeptReplay } from '../../core/report.js';
import type { CaseContext, CaseOutcome } from '../case.js';
import { ExploreCoverage } from './coverage.js';
import { CRAWL_DEPTH, crawl } from './crawl.js';
import { type ExploreStep, describeStep } from './explore-step.js';
import { messageShapes } from './message-shapes.js';
import { EVERYDAY_TEXTS } from './person-texts.js';
import { type PlayedConversation, type Script, playConversation, stepsScript } from './play-conversation.js';
import { Dice } from './random.js';
import { SHRINK_BOUNDS, shrinkConversation } from './shrink.js';
import { TurnBudget } from './turn-budget.js';
import { walkLength, walkScript } from './walks.js';

/** The share of the turns left after the message shapes that the crawl may take: the walks get the rest. */
const CRAWL_SHARE = 2 / 3;

/** A played conversation, with its place among those the case opened (the report lists kept ones in that order). */
interface Played extends PlayedConversation {
  opened: number;
}

/** The best conversation found for one problem so far. */
interface Candidate {
  /** The problem's place (failurePlace): what a smaller conversation must still fail with. */
  problem: string;
  finding: Finding;
  played: Played;
  steps: ExploreStep[];
  /** Its place in the order the conversations were made: a tie in size goes to the earlier. */
  made: number;
  source: 'explored' | 'kept';
}

/** How big a conversation is, to compare: messages, then the length of its texts, then its files. */
function size(steps: readonly ExploreStep[]): [number, number, number] {
  return [
    steps.length,
    steps.reduce((sum, step) => sum + step.text.length, 0),
    steps.reduce((sum, step) => sum + (step.files?.length ?? 0), 0),
  ];
}

function smaller(a: Candidate, b: Candidate): boolean {
  const [sa, sb] = [size(a.steps), size(b.steps)];
  for (let index = 0; index < sa.length; index++) if (sa[index] !== sb[index]) return sa[index]! < sb[index]!;
  return a.made < b.made;
}

/** A problem's rule and place, for people: `schema /replies/0/buttons`; the rule alone for the answer as a whole (`status`). */
function titleOf(finding: Finding): string {
  return finding.path === '' ? finding.rule : `${finding.rule} ${finding.path}`;
}

class Exploration {
  readonly coverage = new ExploreCoverage();
  readonly candidates = new Map<string, Candidate>();
  readonly kept: KeptReplay[] = [];
  readonly notReached: string[] = [];
  readonly budget: TurnBudget;
  #opened = 0;
  #made = 0;
  /** The conversation an agent that stopped answering was found on: reported once. */
  #stoppedOn: Played | undefined;
  shrinkTurns = 0;
  phases = { shapes: 0, crawl: 0, walks: 0 };

  constructor(readonly context: CaseContext) {
    this.budget = new TurnBudget(context.settings.explore.turns);
  }

  get halted(): boolean {
    return this.context.halted;
  }

  /** Plays a conversation; `counted`: its turns count as exploring (coverage), as the phases' do. */
  async play(script: Script, maxTurns: number, counted: boolean, stopAtFailure = true): Promise<Played> {
    const opened = this.#opened++;
    const played: Played = { ...(await playConversation(this.context, script, maxTurns, stopAtFailure)), opened };
    if (counted) {
      this.coverage.record(played);
      this.context.progress(this.coverage.turns, this.budget.limit, this.candidates.size);
    }
    if (played.cut && played.conversation.past.length > played.turns.length && this.#stoppedOn === undefined) this.#stoppedOn = played;
    return played;
  }

  /** A phase's conversation, played and looked at: its failures become candidates, else it is forgotten. */
  async explore(script: Script, maxTurns: number, source: Candidate['source'] = 'explored'): Promise<Played> {
    const made = this.#made++;
    const played = await this.play(script, maxTurns, source === 'explored');
    this.consider(played, made, source);
    return played;
  }

  consider(played: Played, made: number, source: Candidate['source']): void {
    const last = played.turns.at(-1);
    if (!played.cut && last) {
      const steps = played.turns.map((turn) => turn.step);
      for (const [problem, finding] of last.failures) {
        const candidate: Candidate = { problem, finding, played, steps, made, source };
        const known = this.candidates.get(problem);
        if (!known || (known.source === 'explored' && (source === 'kept' || smaller(candidate, known)))) {
          this.candidates.set(problem, candidate);
          if (known) this.release(known.played);
        }
      }
    }
    this.release(played);
  }

  /** Forgets a conversation no candidate holds (and that is not the one the agent stopped on). */
  release(played: Played): void {
    if (played === this.#stoppedOn) return;
    for (const candidate of this.candidates.values()) if (candidate.played === played) return;
    this.context.forget(played.conversation);
  }

  get stoppedOn(): Played | undefined {
    return this.#stoppedOn;
  }
}

/** The conversations kept from earlier runs for this channel, played first: failing still, passing, or no longer playable. */
async function playKept(exploration: Exploration): Promise<void> {
  const { context } = exploration;
  const kept = context.settings.explore.kept.filter((conversation) => conversation.channel === context.channel);
  const played = await runPooled(
    kept.map((conversation) => () => exploration.explore(stepsScript(conversation.steps), conversation.steps.length, 'kept')),
    context.settings.concurrency,
  );
  for (const [index, conversation] of kept.entries()) {
    const play = played[index]!;
    if (play.cut) continue;
    const failing = play.turns.at(-1)?.failures.has(conversation.problem) ?? false;
    const outcome = play.changed !== undefined ? 'path-changed' : failing ? 'failed' : 'passed';
    exploration.kept.push({
      problem: conversation.problem,
      title: conversation.title,
      outcome,
      note: play.changed ?? null,
      messages: conversation.steps.length,
    });
  }
}

async function playShapes(exploration: Exploration): Promise<void> {
  const { context } = exploration;
  const { shapes, notSent } = messageShapes(context.platform);
  exploration.notReached.push(...notSent);
  const played = await runPooled(
    shapes.map(
      (shape) => async () =>
        exploration.budget.takeWhole(shape.steps.length) ? exploration.explore(stepsScript(shape.steps), shape.steps.length) : undefined,
    ),
    context.settings.concurrency,
  );
  for (const [index, shape] of shapes.entries()) {
    const play = played[index];
    if (play === undefined) {
      if (!exploration.halted) exploration.notReached.push(`${shape.name}: no turns were left (--explore-turns)`);
      continue;
    }
    exploration.phases.shapes++;
    if (play.changed !== undefined) exploration.notReached.push(`${shape.name}: ${play.changed}`);
  }
}

async function playCrawl(exploration: Exploration): Promise<void> {
  const { context } = exploration;
  const limit = Math.floor(exploration.budget.left * CRAWL_SHARE);
  let taken = 0;
  const outcome = await crawl(
    EVERYDAY_TEXTS.map((text) => ({ text })),
    (paths) =>
      runPooled(
        paths.map((path) => async () => {
          if (taken + path.length > limit || !exploration.budget.takeWhole(path.length)) return undefined;
          taken += path.length;
          return exploration.explore(stepsScript(path), path.length);
        }),
        context.settings.concurrency,
      ),
    () => exploration.halted,
  );
  exploration.phases.crawl = outcome.paths;
  if (outcome.atDepth > 0) {
    exploration.notReached.push(
      `${outcome.atDepth} menu state${outcome.atDepth === 1 ? '' : 's'} at the crawl's depth (${CRAWL_DEPTH} messages), not opened further`,
    );
  }
  if (outcome.changed > 0) {
    exploration.notReached.push(
      `${outcome.changed} crawl path${outcome.changed === 1 ? '' : 's'} could not be played again: the agent offered other choices (by id and title) when the same messages were sent anew, so the menu behind ${outcome.changed === 1 ? 'it' : 'them'} was not crawled`,
    );
  }
  if (outcome.outOfTurns && !exploration.halted) {
    exploration.notReached.push('menu states the crawl did not open: its share of --explore-turns ran out (the walks still reach some)');
  }
}

async function playWalks(exploration: Exploration): Promise<void> {
  const { context } = exploration;
  const { seed } = context.settings.explore;
  await inParallel(context.settings.concurrency, () => {
    if (exploration.budget.left <= 0 || exploration.halted) return undefined;
    const dice = Dice.forked(seed, `${context.channel} walk ${exploration.phases.walks++}`);
    const length = exploration.budget.take(walkLength(dice));
    return async () => {
      await exploration.explore(walkScript(dice, length), length);
    };
  });
}

/** One problem's conversation, shrunk (or as found, with --no-shrink or when kept): the failure as reported. */
async function shrunkFailure(
  exploration: Exploration,
  candidate: Candidate,
): Promise<{ failure: Omit<ExploredFailure, 'firstTurn' | 'flaky' | 'replay'>; final: Played; flaky: Played | undefined }> {
  const { context } = exploration;
  const found = {
    problem: problemId(candidate.finding),
    place: candidate.problem,
    title: titleOf(candidate.finding),
    source: candidate.source,
  };
  if (!context.settings.explore.shrink || candidate.source === 'kept' || exploration.halted) {
    return {
      failure: { ...found, steps: candidate.steps, described: candidate.steps.map(describeStep), shrink: null },
      final: candidate.played,
      flaky: undefined,
    };
  }
  const shrunk = await shrinkConversation(
    candidate.steps,
    async (steps) => {
      const play = await exploration.play(stepsScript(steps), steps.length, false);
      exploration.shrinkTurns += play.turns.length;
      const failing = !play.cut && play.turns.at(-1)?.failures.has(candidate.problem) === true;
      return { play, failsAt: failing ? play.turns.length : undefined };
    },
    (play) => exploration.release(play),
    SHRINK_BOUNDS,
    () => exploration.halted,
  );
  if (shrunk.smallest === undefined && shrunk.passedReplay?.cut) {
    exploration.release(shrunk.passedReplay);
    const shrink = { fromMessages: candidate.steps.length, plays: shrunk.plays, gaveUp: 'the run was halted' };
    return {
      failure: { ...found, steps: candidate.steps, described: candidate.steps.map(describeStep), shrink },
      final: candidate.played,
      flaky: undefined,
    };
  }
  if (shrunk.smallest === undefined) {
    return {
      failure: {
        ...found,
        steps: candidate.steps,
        described: candidate.steps.map(describeStep),
        shrink: { fromMessages: candidate.steps.length, plays: shrunk.plays, gaveUp: null },
      },
      final: candidate.played,
      flaky: shrunk.passedReplay,
    };
  }
  const { steps, play } = shrunk.smallest;
  return {
    failure: {
      ...found,
      steps,
      described: steps.map(describeStep),
      shrink: { fromMessages: candidate.steps.length, plays: shrunk.plays, gaveUp: shrunk.gaveUp },
    },
    final: play,
    flaky: undefined,
  };
}

/** Plays --explore on the context's channel: what it covered and found, as the case's outcome. */
export async function exploreChannel(context: CaseContext): Promise<CaseOutcome> {
  const settings = context.settings.explore;
  const exploration = new Exploration(context);
  await playKept(exploration);
  if (settings.keptOnly && exploration.kept.length === 0 && !context.halted) {
    exploration.notReached.push(
      'no conversation is kept for this channel (.check-endpoint/explore.json): run --explore again to explore it',
    );
  }
  if (!settings.keptOnly) {
    await playShapes(exploration);
    await playCrawl(exploration);
    await playWalks(exploration);
  }
  const candidates = [...exploration.candidates.values()].sort((a, b) => a.made - b.made);
  const shrunk: Awaited<ReturnType<typeof shrunkFailure>>[] = [];
  for (const candidate of candidates) shrunk.push(await shrunkFailure(exploration, candidate));
  // What stays in the report: each failure's smallest conversation (and a flaky one's passing replay), and where the agent stopped.
  const keep = new Set<Played>(shrunk.flatMap((entry) => (entry.flaky ? [entry.final, entry.flaky] : [entry.final])));
  if (exploration.stoppedOn) keep.add(exploration.stoppedOn);
  for (const candidate of candidates) if (!keep.has(candidate.played)) context.forget(candidate.played.conversation);
  const inReportOrder = [...keep].sort((a, b) => a.opened - b.opened);
  const firstTurn = new Map<Played, number>();
  let offset = 0;
  for (const played of inReportOrder) {
    firstTurn.set(played, offset);
    offset += played.conversation.past.length;
  }
  const found: ExploredFailure[] = shrunk.map(({ failure, final, flaky }) => ({
    ...failure,
    firstTurn: firstTurn.get(final)!,
    flaky: flaky ? { firstTurn: firstTurn.get(flaky)!, messages: flaky.turns.length } : null,
    replay: null,
  }));
  const { coverage } = exploration;
  const report: ExploreReport = {
    seed: settings.seed,
    turnBudget: settings.turns,
    turns: coverage.turns,
    conversations: coverage.conversations,
    choices: coverage.choices,
    states: coverage.states,
    deepest: coverage.deepest,
    phases: exploration.phases,
    stoppedBy: context.halted ? 'halted' : settings.keptOnly ? 'done' : 'turns',
    notReached: [...coverage.neverTapped(), ...exploration.notReached],
    shrinkTurns: exploration.shrinkTurns,
    found,
    kept: exploration.kept,
  };
  const nothingPlayed = settings.keptOnly && exploration.kept.length === 0;
  return { explore: report, ...(context.halted || nothingPlayed ? { cutShort: true } : {}) };
}
