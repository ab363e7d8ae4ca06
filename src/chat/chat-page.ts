/**
 * The chat page: one self-contained document (no asset from the network: it works offline) under
 * the HTML report's content security policy, which lets it talk to its own server and nothing
 * else. Its styles are the report's (each platform's look) and its own; its one script is
 * chat-script.ts. The conversations are drawn into it by the script.
 */
import { TOOL_VERSION } from '../core/version.js';
import { type Markup, h } from '../report/html/markup.js';
import { contentSecurityPolicy, pageHead } from '../report/html/policy.js';
import { PAGE_STYLES } from '../report/html/styles.js';
import { CHAT_SCRIPT } from './chat-script.js';
import { CHAT_STYLES } from './chat-styles.js';
import { SAMPLE_FILES } from './chat-step.js';

const STYLES = `${PAGE_STYLES}${CHAT_STYLES}`;

/** The page's policy: the report's, with `connect-src 'self'` for its API and `blob:` images for the person's own photo (sent as a header too). */
export const CHAT_POLICY = contentSecurityPolicy(STYLES, CHAT_SCRIPT, 'chat');

export interface ChatPageFacts {
  /** The page's token: every API request carries it. */
  token: string;
  /** The agent as shown (its URL with its secrets redacted, or what was served). */
  target: string;
  contractVersion: string;
  /** The channels the page offers, with their names for people; the first is the first conversation's. */
  channels: readonly { name: string; title: string }[];
  initial: string;
  /** The --start agent's pane and its restart button are shown. */
  agent: boolean;
  /** Where a scenario is saved, as the page says it. */
  scenarioFolder: string;
}

function channelOptions(facts: ChatPageFacts): Markup {
  return h`${facts.channels.map(
    (channel) =>
      h`<option value="${channel.name}"${channel.name === facts.initial ? h` selected` : ''}>${channel.title}${
        channel.title !== channel.name ? ` (${channel.name})` : ''
      }</option>`,
  )}`;
}

function agentPane(facts: ChatPageFacts): Markup | '' {
  if (!facts.agent) return '';
  return h`<section class="agent-pane" aria-labelledby="agent-title">
    <div class="agent-head">
      <h2 id="agent-title">The agent's output</h2>
      <button type="button" id="agent-restart">Restart the agent</button>
      <span id="agent-state" role="status"></span>
    </div>
    <pre id="agent-output" tabindex="0" aria-label="The agent's output, its last lines"></pre>
  </section>`;
}

export function renderChatPage(facts: ChatPageFacts): string {
  const samples = Object.entries(SAMPLE_FILES).map(
    ([name, file]) => h`<option value="${name}" data-kind="${file.kind}">${file.label}</option>`,
  );
  const body = h`<a class="skip" href="#composer-text">Skip to the message box</a>
    <header class="report-head">
      <div class="wrap">
        <p class="tool">check-endpoint ${TOOL_VERSION} · contract ${facts.contractVersion} · chat</p>
        <h1>Chat with <code>${facts.target}</code></h1>
        <div class="chat-toolbar">
          <label for="channel">Platform</label>
          <select id="channel" aria-describedby="channel-hint">
            ${channelOptions(facts)}
          </select>
          <span id="channel-hint" class="chat-hint">plays the conversation again there (by keyboard: arrows choose, Enter plays)</span>
          <button type="button" id="new-conversation">New conversation</button>
          <button type="button" id="save-scenario" aria-controls="scenario-panel">Save as a scenario…</button>
        </div>
      </div>
    </header>
    <main class="wrap" id="chat-main" data-token="${facts.token}" data-agent="${facts.agent ? 'yes' : 'no'}">
      <section class="scenario-panel" id="scenario-panel" aria-labelledby="scenario-title" hidden>
        <h2 id="scenario-title">Save this conversation as a scenario</h2>
        <p>
          Its typed messages become the opening of <code>${facts.scenarioFolder}/ID.yaml</code>, which
          <code>scenarios --lint</code> checks and <code>--scenarios</code> plays. A tap, a file or a quote cannot be written in a scenario.
        </p>
        <form id="scenario-form">
          <label for="scenario-id">Scenario id</label>
          <input id="scenario-id" name="id" pattern="[a-z][a-z0-9_-]{0,47}" placeholder="latte-order" autocomplete="off" />
          <button type="button" id="scenario-show">Show the file</button>
          <button type="submit">Save it</button>
        </form>
        <p id="scenario-result" class="scenario-result" role="status"></p>
        <pre id="scenario-out" hidden></pre>
      </section>
      <p id="status" class="chat-status" role="status" aria-live="polite"></p>
      <div id="conversations"></div>
      <form id="composer" class="composer-form" aria-label="Your message">
        <div id="quoting" class="quoting" hidden>
          <span id="quoting-text"></span>
          <button type="button" id="quote-cancel">Cancel the quote</button>
        </div>
        <label class="composer-label" for="composer-text">Your message (Enter sends, Shift+Enter starts a new line)</label>
        <textarea id="composer-text" rows="2" autocomplete="off"></textarea>
        <button type="submit" class="send">Send</button>
        <div class="composer-extras">
          <label for="attach">Attach</label>
          <select id="attach">
            <option value="">no file</option>
            ${samples}
            <option value="own">a file of your own…</option>
          </select>
          <label for="own-file" id="own-file-label" hidden>Your file (up to 5 MB)</label>
          <input type="file" id="own-file" hidden />
        </div>
      </form>
      ${agentPane(facts)}
      <footer class="page-foot">
        <p>
          Drawn by check-endpoint ${TOOL_VERSION} with its HTML report's renderers: each platform is imitated, not reproduced. A reply
          struck through is one the platform would not send, its finding and fix beside it. This page loads nothing from the
          network and talks only to the chat server on this machine; the agent's token never reaches it.
        </p>
      </footer>
    </main>`;
  return `${pageHead(CHAT_POLICY, `check-endpoint chat · ${facts.target}`, STYLES)}
<body>
${body}
<script>${CHAT_SCRIPT}</script>
</body>
</html>
`;
}
