/** The chat page's own styles, after the report's (src/report/html/styles.ts), whose looks draw each platform. */
export const CHAT_STYLES = `
.chat-toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: .6rem 1rem; margin-top: .5rem; }
.chat-toolbar label { font-weight: 600; }
.chat-hint { color: var(--muted); font-size: .85rem; }
.chat-toolbar select, .chat-toolbar button, .composer-form button, .composer-form select, .scenario-panel button, .agent-pane button {
  font: inherit; padding: .35rem .8rem; border-radius: 8px; border: 1px solid #8c959f; background: #fff; color: var(--ink); cursor: pointer; }
.chat-toolbar button:hover, .composer-form button:hover { background: #f3f4f6; }
.chat-status { min-height: 1.5em; margin: .75rem 0; color: var(--muted); }
#conversations { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 46rem), 1fr)); gap: 1.5rem; align-items: start; }
.conversation { background: #fff; border: 1px solid var(--line); border-radius: 12px; padding: .9rem 1rem 1rem; min-width: 0; }
.conversation-meta { margin: 0 0 .6rem; color: var(--muted); font-size: .85rem; overflow-wrap: anywhere; }
.conversation .chat { max-height: none; }
.chat.chat-more > .row:first-child .lane { padding-top: .3rem; }
.conversation ol.chat { content-visibility: auto; contain-intrinsic-size: auto 40rem; }
.conversation .row { scroll-margin-bottom: 11rem; }
.composer-form { position: sticky; bottom: 0; background: var(--page); border-top: 1px solid var(--line); padding: .75rem 0 1rem; margin-top: 1rem;
  display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: .4rem .75rem; align-items: end; }
.composer-form textarea { grid-column: 1; width: 100%; font: inherit; padding: .5rem .7rem; border-radius: 10px; border: 1px solid #8c959f; resize: vertical; }
.composer-form .send { grid-column: 2; background: #0969da; color: #fff; border-color: #0969da; font-weight: 600; }
.composer-form .send:hover { background: #0757b8; }
.composer-label { grid-column: 1 / -1; font-weight: 600; }
.composer-extras { grid-column: 1 / -1; display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; font-size: .9rem; }
.quoting { grid-column: 1 / -1; display: flex; gap: .75rem; align-items: center; background: #fff; border-left: 4px solid #0969da; padding: .3rem .6rem; border-radius: 6px; }
button.tap { all: unset; box-sizing: border-box; display: block; width: 100%; cursor: pointer; border-radius: inherit; }
.list-row button.tap { display: grid; grid-template-columns: 1fr auto; column-gap: .5rem; }
button.tap:focus-visible, button.quote-this:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.chip:has(button.tap):hover, .list-row:has(button.tap):hover { filter: brightness(.95); }
button.quote-this { font: inherit; font-size: .75rem; margin: .15rem .2rem .3rem; padding: .05rem .5rem; border-radius: 999px; border: 1px solid #6e7781; background: #fff; color: #24292f; cursor: pointer; }
.row.person button.quote-this { align-self: flex-end; }
.row.agent button.quote-this { align-self: flex-start; }
.turn-details { width: 100%; font-size: .82rem; background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: .25rem .6rem; margin: .2rem 0 .4rem; }
.turn-open { font: inherit; background: none; border: 0; padding: .1rem 0; cursor: pointer; color: #0550ae; text-align: left; }
.turn-open::before { content: "▸ "; }
.turn-open[aria-expanded="true"]::before { content: "▾ "; }
.turn-open:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.turn-details pre { margin: .3rem 0; padding: .5rem; background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 24rem; overflow: auto; font-size: .76rem; }
.pane-title { margin: .6rem 0 .2rem; font-size: .85rem; font-weight: 700; }
.pane-note { margin: .2rem 0; color: var(--muted); }
.row.pending .turn-chip { font-style: italic; }
.scenario-panel, .agent-pane { background: #fff; border: 1px solid var(--line); border-radius: 12px; padding: .75rem 1rem; margin: 1rem 0; }
.scenario-panel form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.scenario-panel input { font: inherit; padding: .3rem .5rem; border: 1px solid #8c959f; border-radius: 6px; }
.scenario-result { margin: .5rem 0; }
.scenario-result.bad { color: var(--fail); font-weight: 600; }
.scenario-panel pre, .agent-pane pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: .5rem; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 18rem; overflow: auto; }
.agent-pane h2, .scenario-panel h2 { margin: 0 0 .4rem; font-size: 1.05rem; }
.agent-head { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; }
`;
