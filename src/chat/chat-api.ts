/**
 * What the chat page can ask of its server, once its request is let in (chat-guard.ts) and read
 * (chat-requests.ts): start a conversation, send a message into one, play one again on another
 * platform, write one as a scenario file, download a turn's request, see and restart the agent.
 * Each conversation is its own (two tabs are two conversations); at most MAX_CONVERSATIONS are
 * kept, the oldest forgotten first.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentControl } from './agent-control.js';
import { ChatConversation, type ChatLink } from './chat-conversation.js';
import { type ChatStep, isSampleFile, sampleAttachment, stepAgain } from './chat-step.js';
import { type TurnView, channelTitle, renderChatTurn, renderPhone } from './chat-views.js';
import { scenarioText } from './scenario-out.js';

/** Conversations kept at once, and turns in one: a page left open for days stays bounded. */
export const MAX_CONVERSATIONS = 200;
export const MAX_TURNS = 1000;
/** Messages of one conversation waiting for answers at once (a double or triple text is a few). */
export const MAX_WAITING = 10;

/** An answer to the page: its HTTP status and JSON. */
export interface ApiAnswer {
  status: number;
  json: unknown;
}

const ok = (json: unknown): ApiAnswer => ({ status: 200, json });
const notFound = (what: string): ApiAnswer => ({
  status: 404,
  json: { error: `${what} is not known to this server (it was restarted, or the page is old): reload the page` },
});
const bad = (error: string): ApiAnswer => ({ status: 400, json: { error } });

export interface ChatApiSettings {
  link: ChatLink;
  /** The channels the page may choose, the first conversation's first. */
  channels: readonly string[];
  token: string;
  agent: AgentControl | undefined;
  /** The folder scenarios are written into (tests/scenarios). */
  scenarioFolder: string;
  /**
   * Once the agent was restarted, waits until it answers the HEAD probe again (wait-for-agent.ts, as
   * --start and --wait do for the check): why not, when it did not.
   */
  agentAnswers: (agent: AgentControl) => Promise<{ answers: true } | { answers: false; reason: string }>;
}

export class ChatApi {
  readonly #conversations = new Map<string, ChatConversation>();
  /** The restart under way: a second click waits for it rather than starting the agent twice. */
  #restarting: Promise<ApiAnswer> | undefined;

  constructor(readonly settings: ChatApiSettings) {}

  #phone(key: string, conversation: ChatConversation): { key: string; channel: string; title: string; html: string } {
    return {
      key,
      channel: conversation.channel,
      title: channelTitle(conversation.link.plan, conversation.channel),
      html: renderPhone(conversation, key).value,
    };
  }

  #open(channel: string): { key: string; conversation: ChatConversation } {
    const key = process.getBuiltinModule('node:crypto').randomBytes(8).toString('hex');
    const conversation = new ChatConversation(this.settings.link, channel);
    this.#conversations.set(key, conversation);
    if (this.#conversations.size > MAX_CONVERSATIONS) this.#conversations.delete(this.#conversations.keys().next().value!);
    return { key, conversation };
  }

  #channelOf(asked: string | undefined): string | undefined {
    const channel = asked ?? this.settings.channels[0]!;
    return this.settings.channels.includes(channel) ? channel : undefined;
  }

  #download(key: string, index: number): string {
    return `api/conversations/${key}/turns/${index}/request.json?token=${encodeURIComponent(this.settings.token)}`;
  }

  #view(key: string, conversation: ChatConversation, index: number): TurnView {
    return renderChatTurn(conversation, index, this.#download(key, index), `turn-${key}-${index}`);
  }

  newConversation(asked: string | undefined): ApiAnswer {
    const channel = this.#channelOf(asked);
    if (channel === undefined) return bad(`the channel must be one of ${this.settings.channels.join(', ')}`);
    const { key, conversation } = this.#open(channel);
    return ok(this.#phone(key, conversation));
  }

  async message(key: string, step: ChatStep): Promise<ApiAnswer> {
    const conversation = this.#conversations.get(key);
    if (!conversation) return notFound('this conversation');
    // The messages waiting for an answer count too: sent at once, they would pass the bound (and each holds its body).
    if (conversation.turns.length + conversation.unanswered >= MAX_TURNS)
      return ok({ refused: `a conversation holds ${MAX_TURNS} turns at most: start a new one` });
    if (conversation.unanswered >= MAX_WAITING)
      return ok({ refused: `${MAX_WAITING} messages are waiting for the agent's answers already: wait for them before sending more` });
    const sent = await conversation.send(step);
    if ('refused' in sent) return ok(sent);
    return ok(this.#view(key, conversation, sent.index));
  }

  /** The conversation played again, as a new conversation, on another channel: each step in turn, a tap found again in the new answers. */
  async replay(key: string, asked: string | undefined): Promise<ApiAnswer> {
    const before = this.#conversations.get(key);
    if (!before) return notFound('this conversation');
    const channel = this.#channelOf(asked);
    if (channel === undefined) return bad(`the channel must be one of ${this.settings.channels.join(', ')}`);
    const opened = this.#open(channel);
    const turns: TurnView[] = [];
    let stopped: string | undefined;
    for (const old of before.turns) {
      const again = stepAgain(
        old.step,
        before.turns.map((turn) => turn.past),
        opened.conversation.turns.map((turn) => turn.past),
      );
      if ('changed' in again) {
        stopped = again.changed;
        break;
      }
      const sent = await opened.conversation.send(again.step);
      if ('refused' in sent) {
        stopped = `message ${turns.length + 1} could not be sent: ${sent.refused}`;
        break;
      }
      turns.push(this.#view(opened.key, opened.conversation, sent.index));
    }
    return ok({ ...this.#phone(opened.key, opened.conversation), turns, ...(stopped !== undefined ? { stopped } : {}) });
  }

  /** The conversation as a scenario file, shown, or written into the scenarios folder (never over a file that is there). */
  async scenario(key: string, id: string, save: boolean): Promise<ApiAnswer> {
    const conversation = this.#conversations.get(key);
    if (!conversation) return notFound('this conversation');
    const made = scenarioText(id, conversation.channel, conversation.turns);
    if ('refused' in made || !save) return ok(made);
    const { scenarioFolder } = this.settings;
    const file = join(scenarioFolder, `${id}.yaml`);
    try {
      await mkdir(scenarioFolder, { recursive: true });
      await writeFile(file, made.yaml, { flag: 'wx' });
    } catch (cause) {
      const code = (cause as NodeJS.ErrnoException).code;
      return ok({
        ...made,
        refused: code === 'EEXIST' ? `${file} is there already: choose another id` : `${file} could not be written (${code ?? 'error'})`,
      });
    }
    return ok({ ...made, file });
  }

  /** The request body of a turn exactly as sent, for its download. */
  requestBody(key: string, index: number): Buffer | string | undefined {
    return this.#conversations.get(key)?.turns[index]?.body;
  }

  agent(): ApiAnswer {
    const { agent } = this.settings;
    if (!agent) return notFound('an agent process');
    return ok({ lines: agent.lines(), state: agent.state() });
  }

  /** One of the check's sample files, its bytes and type, for the page to draw the person's own photo from. */
  sampleFile(name: string): { mime: string; bytes: Buffer } | undefined {
    if (!isSampleFile(name)) return undefined;
    const { mime, data } = sampleAttachment(name);
    return { mime, bytes: Buffer.from(data, 'base64') };
  }

  /** Restarts the agent, and answers once it answers again (or did not within the wait): the page says it is ready only then. */
  restartAgent(): Promise<ApiAnswer> {
    const { agent } = this.settings;
    if (!agent) return Promise.resolve(notFound('an agent process'));
    this.#restarting ??= this.#restart(agent).finally(() => {
      this.#restarting = undefined;
    });
    return this.#restarting;
  }

  async #restart(agent: AgentControl): Promise<ApiAnswer> {
    await agent.restart();
    const answered = await this.settings.agentAnswers(agent);
    return ok({ state: agent.state(), ...answered });
  }
}
