/**
 * The chat command's --start agent, as the page sees it (chat/agent-control.ts): the process of
 * agent-process.ts (its own process group, its output with every secret redacted), started again
 * on the page's restart button. Its lines run on across restarts, each restart marked.
 */
import type { AgentControl } from '../chat/agent-control.js';
import { AgentProcess } from './agent-process.js';

/** Lines shown on the page at most. */
const SHOWN_LINES = 200;

export class RestartableAgent implements AgentControl {
  #process: AgentProcess;
  #earlier: string[] = [];
  #starts = 1;

  constructor(
    readonly command: string,
    readonly secrets: readonly string[],
  ) {
    this.#process = new AgentProcess(command, secrets);
  }

  lines(): readonly string[] {
    return [...this.#earlier, ...this.#process.lastLines()].slice(-SHOWN_LINES);
  }

  state(): string {
    const exit = this.#process.exit();
    const again = this.#starts > 1 ? `, started ${this.#starts} times` : '';
    if (exit) return `stopped: ${exit.description}${again}`;
    return `running${again}`;
  }

  exited(): string | undefined {
    return this.#process.exit()?.description;
  }

  async restart(): Promise<void> {
    await this.#process.stop();
    this.#earlier = [...this.lines(), `— restarted from the chat page (start ${this.#starts + 1}) —`].slice(-SHOWN_LINES);
    this.#starts++;
    this.#process = new AgentProcess(this.command, this.secrets);
  }

  stop(): Promise<void> {
    return this.#process.stop();
  }
}
