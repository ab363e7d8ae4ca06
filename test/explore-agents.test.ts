import assert from 'node:assert/strict';
import { servedDuring } from './served-during.js';
import { describe, test } from 'node:test';
import { checkEndpoint } from '../src/index.js';
import { BROKEN_EXPLORE_AGENTS, type ExploreAgent, VALID_EXPLORE_AGENTS } from '../fixtures/agents/explore.js';
// For its side effect: a proxy set on the machine does not carry the suite's loopback requests.
import './helpers.js';
import { CHANNELS, FIXED_CASE_IDS } from './contract-ids.js';

/** The seed each broken agent is checked with, and two more: a defect found on one seed only would be luck. */
const SEEDS = [1, 2, 3] as const;
/** --explore-turns' default, which the runs here keep. */
const DEFAULT_TURNS = 300;

function withAgent(agent: ExploreAgent): { url: () => string } {
  return servedDuring(() => agent.handler());
}

describe('the valid explore agents pass every case and --explore on every channel', () => {
  for (const agent of VALID_EXPLORE_AGENTS) {
    describe(agent.name, () => {
      const served = withAgent(agent);
      test('passes, and --explore stops at its budget of turns', async () => {
        const report = await checkEndpoint(served.url(), { channels: ['all'], explore: true, seed: SEEDS[0] });
        assert.equal(
          report.outcome,
          'passed',
          JSON.stringify(report.cases.flatMap((c) => c.findings.map((f) => ({ case: c.id, channel: c.channel, ...f })))),
        );
        assert.equal(report.exitCode, 0);
        assert.equal(report.counts.cases, CHANNELS.length * (FIXED_CASE_IDS.length + 1));
        assert.equal(report.counts.errors, 0);
        assert.equal(report.counts.warnings, 0);
        const explored = report.cases.filter((c) => c.id === 'explore');
        assert.deepEqual(explored.map((c) => c.channel).sort(), [...CHANNELS].sort());
        for (const c of explored) {
          const explore = c.explore!;
          assert.equal(explore.stoppedBy, 'turns', c.channel);
          assert.equal(explore.turns, DEFAULT_TURNS, c.channel);
          assert.deepEqual(explore.found, [], c.channel);
          assert.equal(explore.seed, SEEDS[0]);
        }
      });
    });
  }

  describe('cafe-menu', () => {
    const served = withAgent(VALID_EXPLORE_AGENTS.find((agent) => agent.name === 'cafe-menu')!);
    test('its whole menu is crawled on WhatsApp: every button and list row offered is tapped', async () => {
      const report = await checkEndpoint(served.url(), { channels: ['whatsapp'], explore: true, seed: SEEDS[0] });
      const explore = report.cases.find((c) => c.id === 'explore')!.explore!;
      assert.ok(explore.choices.offered >= 17, `the menu, the order list, the cart and checkout: ${JSON.stringify(explore.choices)}`);
      assert.equal(explore.choices.tapped, explore.choices.offered, explore.notReached.join('; '));
      assert.ok(explore.states >= 6, `states: ${explore.states}`);
      assert.ok(explore.phases.crawl > 0 && explore.phases.walks > 0 && explore.phases.shapes > 0);
    });
  });

  describe('endless-lists', () => {
    const served = withAgent(VALID_EXPLORE_AGENTS.find((agent) => agent.name === 'endless-lists')!);
    test('the crawl is cut by its share of the turns and says so, where lists or buttons are shown', async () => {
      const report = await checkEndpoint(served.url(), { channels: ['whatsapp', 'telegram', 'web'], explore: true, seed: SEEDS[0] });
      for (const c of report.cases.filter((played) => played.id === 'explore')) {
        const explore = c.explore!;
        assert.ok(
          explore.notReached.some((line) => line.includes('the crawl did not open')),
          `${c.channel}: ${explore.notReached.join('; ')}`,
        );
        assert.ok(explore.choices.offered > explore.choices.tapped, `${c.channel}: ${JSON.stringify(explore.choices)}`);
        assert.ok(explore.states > 20, `${c.channel}: states ${explore.states}`);
      }
    });
  });
});

describe('each broken explore agent fails only explore, by its one rule, shrunk to its smallest conversation', () => {
  for (const agent of BROKEN_EXPLORE_AGENTS) {
    const { channel, rule, messages, text } = agent.breaks!;
    describe(agent.name, () => {
      const served = withAgent(agent);
      for (const seed of SEEDS) {
        test(`fails ${channel}/explore with rule ${rule} in ${messages} message${messages === 1 ? '' : 's'} (seed ${seed})`, async () => {
          const report = await checkEndpoint(served.url(), { channels: [channel], explore: true, seed });
          assert.equal(report.exitCode, 1);
          assert.deepEqual(
            report.cases.filter((c) => !c.passed).map((c) => `${c.channel}/${c.id}`),
            [`${channel}/explore`],
            'the fixed cases pass: the defect is where none of them goes',
          );
          const rules = new Set(report.cases.flatMap((c) => c.findings.map((f) => `${c.channel}/${c.id}:${f.rule}`)));
          assert.deepEqual([...rules], [`${channel}/explore:${rule}`]);
          const explore = report.cases.find((c) => c.id === 'explore')!.explore!;
          assert.equal(explore.seed, seed);
          assert.equal(explore.found.length, 1, JSON.stringify(explore.found.map((found) => found.title)));
          const [found] = explore.found;
          assert.ok(found!.title === rule || found!.title.startsWith(`${rule} `), found!.title);
          assert.equal(found!.flaky, null);
          assert.equal(found!.shrink?.gaveUp, null);
          assert.equal(found!.steps.length, messages, found!.described.join(' / '));
          assert.equal(found!.described.length, messages);
          if (typeof text === 'string') assert.equal(found!.steps.at(-1)!.text, text);
          else if (text) assert.match(found!.steps.at(-1)!.text, text);
        });
      }
    });
  }
});
