/**
 * The conversation on screen as a team scenario file (`tests/scenarios/ID.yaml`, what `flow test`
 * plays and `--scenarios` plays the opening of): its id, its channel, and the person's typed
 * messages as `opening`, with `after_ms` for one sent before the last was answered (a double text).
 * Refused, with the reason, where the public format cannot hold what was sent: a tap, a file, a
 * quote, or a text `{{` would make a template of.
 */
import { MAX_AFTER_MS, SCENARIO_ID } from '../scenario-files/scenario-file.js';
import type { ChatTurn } from './chat-conversation.js';

export type ScenarioText = { yaml: string } | { refused: string };

/** A YAML double-quoted scalar: JSON's string syntax is one (YAML 1.2), every character escaped as JSON escapes it. */
function quoted(text: string): string {
  return JSON.stringify(text);
}

/** Why turn `index` cannot be an opening message; undefined when it can. */
function unplayable(turn: ChatTurn, index: number): string | undefined {
  const at = `message ${index + 1}`;
  if (turn.step.tap)
    return `${at} is a tap of a button or list row, which a scenario's opening cannot hold (it holds what the person types)`;
  if (turn.step.file) return `${at} sends a file, which a scenario's opening cannot hold (it holds what the person types)`;
  if (turn.step.quote) return `${at} quotes a message, which a scenario's opening cannot hold (it holds what the person types)`;
  if (turn.step.text.trim() === '') return `${at} has no text`;
  if (turn.step.text.includes('{{')) return `${at} holds "{{", which a scenario reads as the start of a {{now …}} template`;
  return undefined;
}

/** The scenario file of a conversation, or why it cannot be one. */
export function scenarioText(id: string, channel: string, turns: readonly ChatTurn[]): ScenarioText {
  if (!SCENARIO_ID.test(id)) {
    return { refused: 'the id must start with a lower case letter, then lower case letters, digits, _ and - (up to 48 in all)' };
  }
  if (turns.length === 0) return { refused: 'the conversation has no message yet' };
  for (const [index, turn] of turns.entries()) {
    const why = unplayable(turn, index);
    if (why !== undefined) return { refused: `${why}; start a new conversation of typed messages to save it as a scenario` };
  }
  const opening = turns.flatMap((turn, index) => {
    const afterMs = index > 0 && turn.afterMs !== undefined ? Math.min(turn.afterMs, MAX_AFTER_MS) : undefined;
    return [`  - say: ${quoted(turn.step.text)}`, ...(afterMs !== undefined ? [`    after_ms: ${afterMs}`] : [])];
  });
  const lines = [
    `# Saved by check-endpoint chat from a conversation on ${channel}: the person's messages as the opening.`,
    `id: ${id}`,
    `channels: [${channel}]`,
    'opening:',
    ...opening,
    '',
  ];
  return { yaml: lines.join('\n') };
}
