/**
 * A team's scenario as a case of the check: its opening played on each of its channels as one
 * conversation, each `say` a person message, each answer judged by every common rule. A message
 * with `after_ms` is sent that long after the one before it was sent (a double text: the answer to
 * the first may not have come yet); one without is sent after the answer to the one before, as
 * `flow test` sends one at a time.
 */
import { now as clockNow } from '../core/clock.js';
import { SCENARIO_CASE_PREFIX } from '../core/ids.js';
import type { Case, ExchangedTurn } from '../cases/case.js';
import { renderNowTemplates } from './now-template.js';
import type { TeamScenario } from './scenario-file.js';

/** The case id a scenario is reported under inside the run: `scenario/latte-correction`. */
export function scenarioCaseId(scenarioId: string): string {
  return `${SCENARIO_CASE_PREFIX}${scenarioId}`;
}

/** The scenario's opening, its `{{now …}}` rendered from its clock. */
export function openingTexts(scenario: TeamScenario): string[] {
  const clock = scenario.now === undefined ? undefined : new Date(scenario.now);
  return scenario.opening.map((message) => (clock === undefined ? message.say : renderNowTemplates(message.say, clock, scenario.timezone)));
}

export function scenarioCase(scenario: TeamScenario): Case {
  const texts = openingTexts(scenario);
  return {
    id: scenarioCaseId(scenario.id),
    description: `The opening of the scenario ${scenario.id} (${scenario.file}): ${texts.length} message${texts.length === 1 ? '' : 's'}, each answer judged by every common rule.`,
    scope: 'channel',
    group: 'scenario',
    ...(scenario.channels === undefined ? {} : { channels: scenario.channels }),
    async run(context) {
      if (texts.length === 0) return;
      const conversation = context.openConversation();
      const answers: Promise<ExchangedTurn>[] = [];
      let previousSentAt = clockNow();
      for (const [index, message] of scenario.opening.entries()) {
        const previous = answers.at(-1);
        if (message.afterMs !== undefined) await context.wait(previousSentAt + message.afterMs - clockNow());
        else if (previous !== undefined) await previous;
        previousSentAt = clockNow();
        const text = texts[index]!;
        const answer = context.exchange({ conversation, message: { text }, expectsReply: text !== '' });
        // Judged when all have come; a rejection (the run cut short) is seen there, not left unhandled.
        answer.catch(() => undefined);
        answers.push(answer);
      }
      await Promise.all(answers);
    },
  };
}
