/**
 * The agent's process, as the chat page sees it (the command's --start agent): its last lines, its
 * state in words, and a restart. The library's chatServer takes one, or none: without it the page
 * shows no agent pane.
 */
export interface AgentControl {
  /** The last lines the agent printed, every secret already redacted. */
  lines(): readonly string[];
  /** Its state, for people: `running (pid 4123)`, `exited with code 1`. */
  state(): string;
  /** How it ended, once it has (`its process exited with code 1`): the wait for it to answer gives up then. */
  exited?(): string | undefined;
  /** Stops it and starts it again; resolves once the new one was started. */
  restart(): Promise<void>;
}
