/**
 * The page's stylesheet, inline. Each platform's look is a set of custom properties on `.look-*`;
 * colours are chosen for at least 4.5:1 contrast of text on its background.
 */
export const PAGE_STYLES = `
:root { color-scheme: light; --ink: #1f2328; --muted: #57606a; --line: #d0d7de; --page: #f6f7f9;
  --fail: #a40e26; --fail-bg: #ffebe9; --fail-line: #cf222e; --warn: #7d4e00; --warn-bg: #fff8c5; --pass: #116329; --pass-bg: #dafbe1;
  --focus: #0969da; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--page); color: var(--ink); font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Helvetica, Arial, sans-serif, "Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji"; }
code, pre { font-family: ui-monospace, SFMono-Regular, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .86em; }
a { color: var(--focus); }
a:focus-visible, button:focus-visible, summary:focus-visible, .table-wrap:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; border-radius: 4px; }
section.case:focus { outline: none; }
section.case:focus-visible { outline: 3px solid var(--focus); outline-offset: 3px; }
.sr-only { position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.skip { position: absolute; left: -9999px; top: .5rem; background: #fff; padding: .5rem 1rem; z-index: 10; }
.skip:focus { left: 1rem; }
.wrap { max-width: 84rem; margin: 0 auto; padding: 0 1.25rem; }

.report-head { background: #fff; border-bottom: 1px solid var(--line); padding: 1.25rem 0 1rem; }
.tool { margin: 0; color: var(--muted); font-size: .85rem; }
h1 { margin: .25rem 0 .75rem; font-size: 1.6rem; line-height: 1.25; display: flex; flex-wrap: wrap; align-items: center; gap: .6rem; }
.outcome { font-size: .9rem; padding: .2rem .7rem; border-radius: 999px; font-weight: 700; }
.outcome.passed { background: var(--pass-bg); color: var(--pass); }
.outcome.failed, .outcome.error { background: var(--fail-bg); color: var(--fail); }
.outcome.interrupted { background: var(--warn-bg); color: var(--warn); }
.facts { display: flex; flex-wrap: wrap; gap: .4rem 2rem; margin: 0; }
.facts div { min-width: 0; }
.facts dt { color: var(--muted); font-size: .78rem; text-transform: uppercase; letter-spacing: .04em; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.run-error { margin: 1rem 0 0; padding: .75rem 1rem; background: var(--fail-bg); color: var(--fail); border-radius: 8px; font-weight: 600; }

h2 { font-size: 1.25rem; margin: 1.75rem 0 .5rem; }
h3 { font-size: 1.1rem; margin: 2rem 0 .75rem; padding-bottom: .3rem; border-bottom: 1px solid var(--line); display: flex; flex-wrap: wrap; align-items: baseline; gap: .5rem; }
.channel-name { color: var(--muted); font-size: .8rem; font-weight: 400; font-family: ui-monospace, SFMono-Regular, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
.group-tally { color: var(--muted); font-size: .85rem; font-weight: 400; }

.table-wrap { overflow-x: auto; background: #fff; border: 1px solid var(--line); border-radius: 12px; padding: .5rem; }
.matrix { border-collapse: separate; border-spacing: 4px; min-width: 100%; }
.matrix caption { caption-side: top; text-align: left; color: var(--muted); font-size: .85rem; padding: .25rem .25rem .5rem; }
.legend { display: inline-flex; flex-wrap: wrap; gap: .35rem; margin-left: .5rem; }
.legend-item { padding: 0 .45rem; border-radius: 999px; font-size: .78rem; }
.legend-item.pass { background: var(--pass-bg); color: var(--pass); }
.legend-item.warning { background: var(--warn-bg); color: var(--warn); }
.legend-item.fail { background: var(--fail-bg); color: var(--fail); }
.legend-item.none { background: #eef1f4; color: var(--muted); }
.matrix th { text-align: left; font-weight: 600; padding: .3rem .5rem; white-space: nowrap; }
.matrix thead th { font-size: .85rem; color: var(--muted); white-space: normal; vertical-align: bottom; }
.matrix tbody th { font-size: .95rem; }
.cell { padding: 0; }
.cell a { display: flex; flex-direction: column; min-width: 5.75rem; padding: .45rem .6rem; border-radius: 8px; text-decoration: none; border: 1px solid transparent; line-height: 1.25; }
.cell.pass a { background: var(--pass-bg); color: var(--pass); border-color: #aceebb; }
.cell.warning a { background: var(--warn-bg); color: var(--warn); border-color: #eed888; }
.cell.not-run a { background: #f6f8fa; color: var(--muted); border-color: #d0d7de; }
.cell.fail a { background: var(--fail-bg); color: var(--fail); border-color: #ffaba8; font-weight: 700; }
.cell a:hover { filter: brightness(.96); text-decoration: underline; }
.cell .state-line, .nobr { white-space: nowrap; }
.cell .mark { font-weight: 700; }
.cell .why { font-family: ui-monospace, SFMono-Regular, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .74rem; font-weight: 400; }
.cell.none { text-align: center; color: var(--muted); background: #f6f8fa; border-radius: 8px; }

.toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: .75rem; margin: .9rem 0 0; }
.toggle { font: inherit; font-weight: 600; padding: .45rem 1rem; border-radius: 999px; border: 2px solid var(--fail); background: #fff; color: var(--fail); cursor: pointer; }
.toggle:hover { background: var(--fail-bg); }
.toggle[aria-pressed="true"] { background: var(--fail); color: #fff; }
.toggle[aria-pressed="true"]::before { content: "✓ "; }
.toggle-status { margin: 0; color: var(--muted); font-size: .9rem; }
body.only-failures .case:not([data-state="fail"]) { display: none; }
body.only-failures .channel-group:not(:has(.case[data-state="fail"])) { display: none; }

.cases { display: flex; flex-wrap: wrap; gap: 1.25rem; align-items: flex-start; }
.case { flex: 1 1 100%; min-width: 0; padding: 1rem 1.1rem 1.25rem; background: #fff; border: 1px solid var(--line); border-left: 6px solid var(--line); border-radius: 12px; scroll-margin-top: 1rem; }
.case.compact { flex: 0 1 24.5rem; padding: .9rem; }
.case.compact .row { grid-template-columns: var(--lane); }
.case.compact .notes { display: none; }
.case.state-pass { border-left-color: #4ac26b; }
.case.state-warning { border-left-color: #d4a72c; }
.case.state-fail { border-left-color: var(--fail-line); }
.case-head h4 { margin: 0; font-size: 1.05rem; display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; }
.case-id { font-size: 1rem; font-weight: 700; }
.on { font-weight: 400; color: var(--muted); }
.state-badge { font-size: .8rem; padding: .1rem .55rem; border-radius: 999px; font-weight: 700; }
.state-badge.pass { background: var(--pass-bg); color: var(--pass); }
.state-badge.warning { background: var(--warn-bg); color: var(--warn); }
.state-badge.fail { background: var(--fail-bg); color: var(--fail); }
.pass-rate { font-weight: 400; font-variant-numeric: tabular-nums; }
.play-title { margin: .9rem 0 .35rem; font-size: .85rem; color: var(--muted); }
.latency-chart { margin: .25rem 0 1rem; max-width: 34rem; }
.latency-chart svg { width: 100%; height: auto; display: block; }
.latency-chart .bar { fill: #0969da; }
.latency-chart line { stroke-width: 2; }
.latency-chart .mark-p50 { stroke: #1a7f37; }
.latency-chart .mark-p95 { stroke: #a40e26; stroke-dasharray: 4 3; }
.latency-chart text { font-size: 11px; fill: var(--muted); }
.latency-chart figcaption { font-size: .8rem; color: var(--muted); }
.state-badge.not-run { background: #eef1f4; color: var(--muted); }
.case-meta { margin: .25rem 0 .9rem; color: var(--muted); font-size: .85rem; overflow-wrap: anywhere; }
.case-findings { margin: 0 0 .9rem; max-width: 48rem; }
.expected { font-size: .78rem; font-weight: 600; padding: .1rem .5rem; border-radius: 999px; background: #eef1f4; color: var(--ink); }
.request-note { font-size: .75rem; font-weight: 700; text-transform: uppercase; letter-spacing: .04em; margin-bottom: .2rem !important; }
.sent-body { margin-bottom: .3rem; }
/* A card of its own: on a narrow screen the notes sit on the chat's colour, too dark for the link blue. */
.reproduce { margin-top: .4rem; font-size: .82rem; background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .2rem .5rem; }
.reproduce summary { cursor: pointer; color: var(--focus); }
.reproduce pre { margin: .3rem 0 0; padding: .5rem; background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; font-size: .76rem; }

/* The phone: a lane in the platform's colours, the notes beside it. */
.phone { --lane: 22rem; --radius: 18px; }
.phone-head { width: var(--lane); max-width: 100%; display: flex; align-items: center; gap: .6rem; padding: .55rem .9rem; border-radius: var(--radius) var(--radius) 0 0; background: var(--head-bg); color: var(--head-fg); }
.avatar { width: 2rem; height: 2rem; border-radius: 50%; display: inline-grid; place-items: center; font-weight: 700; background: var(--avatar-bg); color: var(--avatar-fg); flex: none; }
.phone-title { margin: 0; display: flex; flex-direction: column; line-height: 1.2; }
.phone-name { font-weight: 600; }
.phone-caption { font-size: .75rem; }
.phone-foot { width: var(--lane); max-width: 100%; padding: .5rem .75rem .75rem; border-radius: 0 0 var(--radius) var(--radius); background: var(--chat-bg); }
.composer { display: block; background: var(--composer-bg); color: var(--composer-fg); border: 1px solid var(--composer-line); border-radius: 999px; padding: .35rem .9rem; font-size: .85rem; }
.chat { list-style: none; margin: 0; padding: 0; }
.row { display: grid; grid-template-columns: var(--lane) minmax(0, 1fr); column-gap: 1.25rem; }
.lane { background: var(--chat-bg); padding: .3rem .75rem; display: flex; flex-direction: column; min-width: 0; }
.chat > .row:first-child .lane { padding-top: .8rem; }
.row.person .lane { align-items: flex-end; }
.row.agent .lane { align-items: flex-start; }
.row.system .lane { align-items: center; }
.notes { min-width: 0; padding: .3rem 0; align-self: start; }
.notes:has(.finding) { border-left: 3px solid var(--line); padding-left: .75rem; }
.notes:has(.finding.warning) { border-left-color: #d4a72c; }
.row.not-sent .notes, .row.refused .notes, .notes:has(.finding.error) { border-left-color: var(--fail-line); }

.bubble { position: relative; max-width: 88%; padding: .4rem .6rem .2rem; border-radius: 10px; box-shadow: 0 1px .5px rgba(11, 20, 26, .13); overflow-wrap: anywhere; min-width: 4.5rem; }
.from-person { background: var(--person-bg); color: var(--person-fg); border-top-right-radius: var(--tail); }
.from-agent { background: var(--agent-bg); color: var(--agent-fg); border-top-left-radius: var(--tail); border: var(--agent-border); }
.bubble p { margin: 0; }
.text { white-space: pre-wrap; unicode-bidi: isolate; }
.clipped { font-style: italic; font-size: .8rem; }
.bubble-preview { display: flex; flex-direction: column; gap: .3rem; margin-top: .5rem; padding-left: .6rem; border-left: 2px dashed var(--line); max-width: 88%; }
.bubble-preview .bubble { max-width: 100%; }
.preview-title { margin: 0; font-size: .75rem; font-style: italic; }
.bad-value { font-style: italic; }
.meta { font-size: .68rem; text-align: right; color: var(--meta); min-height: .9rem; }
.from-person .meta { color: var(--person-meta); }
.ticks { color: var(--ticks); letter-spacing: -.2em; margin-right: .2em; }
.tap-label { display: block; font-size: .68rem; text-transform: uppercase; letter-spacing: .05em; color: var(--person-meta); }
.tap-unsent { border: 1px dashed var(--person-meta); border-radius: 6px; padding: .2rem .4rem; }
.tap-note { font-size: .75rem; color: var(--person-meta); margin: .2rem 0 0; }
.file { padding: .3rem .5rem; border-radius: 6px; background: rgba(0, 0, 0, .06); margin-bottom: .25rem !important; }
.picture { display: block; width: 12rem; max-width: 100%; height: auto; max-height: 10rem; object-fit: cover; border-radius: 6px; margin: .1rem 0 .3rem; background: rgba(0, 0, 0, .06); }
.image-placeholder { margin: .1rem 0 .3rem; padding: .6rem; border: 2px dashed currentColor; border-radius: 6px; display: flex; gap: .5rem; align-items: flex-start; font-size: .82rem; }
.placeholder-icon { font-size: 1.4rem; line-height: 1; }
.image-undrawn { margin: .1rem 0 .3rem; font-size: .82rem; font-style: italic; }
.url { overflow-wrap: anywhere; }
.quote { margin: 0 0 .3rem; padding: .25rem .5rem; border-left: 4px solid var(--quote); background: rgba(0, 0, 0, .06); border-radius: 6px; font-size: .84rem; }
.from-person .quote { background: var(--person-quote-bg); border-left-color: var(--person-quote); }
.quote-from { font-weight: 700; }
.quote.unknown { border-left-color: var(--fail-line); }
.quote-note { font-size: .75rem; font-style: italic; margin-bottom: .2rem !important; }
.cta, .list-opener { margin: .35rem -.6rem 0 !important; padding: .4rem .6rem .2rem; border-top: 1px solid rgba(0, 0, 0, .12); text-align: center; color: var(--link); font-weight: 600; }
.cta .url { display: block; font-weight: 400; font-size: .72rem; color: var(--meta); }
.link-preview { margin: .3rem 0; padding: .45rem .6rem; border-radius: 8px; background: rgba(0, 0, 0, .07); }
.preview-host { font-weight: 700; }
.link-preview .url { font-size: .75rem; }
.reactions { list-style: none; margin: 0; padding: 0; position: absolute; left: .4rem; bottom: -1rem; display: flex; gap: .15rem; }
.bubble:has(.reactions) { margin-bottom: 1rem; }
.reaction { background: var(--reaction-bg); border-radius: 999px; padding: 0 .35rem; font-size: .9rem; line-height: 1.45; box-shadow: 0 1px 2px rgba(0, 0, 0, .25); }
.look-imessage .reactions, .look-sms .reactions { top: -.95rem; bottom: auto; left: -.5rem; }
.look-imessage .bubble:has(.reactions), .look-sms .bubble:has(.reactions) { margin: .9rem 0 0; }
.reaction-note { display: flex; align-items: center; gap: .4rem; padding: .3rem .6rem; border-radius: 999px; background: var(--agent-bg); color: var(--agent-fg); font-size: .85rem; }
.reaction-emoji { font-size: 1.2rem; }

.chips, .keyboard { list-style: none; margin: .25rem 0 .1rem; padding: 0; width: min(88%, 19rem); display: flex; flex-direction: column; gap: .2rem; }
.keyboard { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: .25rem; }
.chip { background: var(--chip-bg); color: var(--chip-fg); border: var(--chip-border); border-radius: var(--chip-radius); padding: .4rem .6rem; text-align: center; font-weight: 600; font-size: .9rem; box-shadow: 0 1px .5px rgba(11, 20, 26, .13); overflow-wrap: anywhere; }
.chip.more { font-weight: 400; font-style: italic; }
/* The URL under a link button's label, in the button's own colour (a keyboard button is dark on Telegram). */
.chip.cta .url { display: block; font-size: .7rem; font-weight: 400; color: inherit; }
.look-web .chips { flex-direction: row; flex-wrap: wrap; width: 88%; }
.list-sheet { margin: .3rem 0 .1rem; width: min(88%, 19rem); background: #fff; color: #111b21; border-radius: 10px; box-shadow: 0 1px 3px rgba(0, 0, 0, .2); padding: .45rem .7rem .3rem; font-size: .88rem; }
.sheet-title { margin: 0 0 .25rem; text-align: center; font-weight: 700; }
.list-sections, .list-rows { list-style: none; margin: 0; padding: 0; }
.section-title { margin: .3rem 0 .1rem; color: var(--list-accent); font-size: .78rem; font-weight: 700; text-transform: uppercase; letter-spacing: .04em; }
.list-row { display: grid; grid-template-columns: 1fr auto; column-gap: .5rem; padding: .3rem 0; border-top: 1px solid #e9edef; }
.row-title { grid-column: 1; }
.row-description { grid-column: 1; color: #54656f; font-size: .8rem; }
.radio { grid-column: 2; grid-row: 1 / span 2; align-self: center; width: 1rem; height: 1rem; border: 2px solid #8696a0; border-radius: 50%; }
.template .template-label { font-weight: 700; font-size: .78rem; text-transform: uppercase; letter-spacing: .05em; color: var(--meta); }
.template-fields { display: grid; grid-template-columns: auto 1fr; gap: .1rem .6rem; margin: .25rem 0; font-size: .88rem; }
.template-fields dt { color: var(--meta); }
.template-fields dd { margin: 0; }
.raw { max-width: 100%; }
.raw-title { font-weight: 700; font-size: .8rem; }
.raw pre { margin: .2rem 0; white-space: pre-wrap; overflow-wrap: anywhere; font-size: .78rem; }

.chip-line { margin: .35rem 0; text-align: center; }
.turn-chip { display: inline-block; background: var(--sys-bg); color: var(--sys-fg); border-radius: 8px; padding: .15rem .6rem; font-size: .75rem; box-shadow: 0 1px .5px rgba(11, 20, 26, .13); }
.turn-chip.bad { background: var(--fail-bg); color: var(--fail); font-weight: 700; }
.turn-failed { margin: 0 0 .35rem; font-size: .8rem; color: var(--fail); background: #fff; padding: .1rem .5rem; border-radius: 6px; }

/* A reply the platform would not send: struck through, outlined, its findings beside it. */
.row.not-sent .bubble, .row.not-sent .chips, .row.not-sent .keyboard, .row.not-sent .list-sheet, .row.not-sent .reaction-note { outline: 2px dashed var(--fail-line); outline-offset: 2px; }
.row.not-sent .lane :is(p, span, li, dd, dt, code, figcaption) { text-decoration-line: line-through; text-decoration-color: var(--fail-line); text-decoration-thickness: 2px; }
.at-fault { text-decoration-line: line-through; text-decoration-color: var(--fail-line); text-decoration-thickness: 2px; background: var(--fail-bg); color: var(--fail); border-radius: 3px; box-shadow: 0 0 0 2px var(--fail-line); }
.at-fault * { color: var(--fail) !important; background: transparent; }
.bubble > .at-fault { display: block; margin: .2rem 0; }
.not-sent-label { margin: .1rem 0 .35rem; font-weight: 800; color: var(--fail); font-size: .78rem; text-transform: uppercase; letter-spacing: .05em; }
.findings { list-style: none; margin: 0; padding: 0; display: grid; gap: .4rem; }
.finding { border: 1px solid var(--line); border-left: 4px solid var(--fail-line); border-radius: 6px; padding: .4rem .6rem; background: #fff; font-size: .86rem; overflow-wrap: anywhere; }
.finding.warning { border-left-color: #bf8700; }
.finding.more { border-left-color: var(--line); font-style: italic; }
.finding p { margin: 0; }
.finding-head { display: flex; flex-wrap: wrap; gap: .3rem; align-items: baseline; margin-bottom: .15rem !important; }
.severity { font-weight: 800; color: var(--fail); text-transform: uppercase; font-size: .72rem; letter-spacing: .04em; margin-right: .2rem; }
.finding.warning .severity { color: var(--warn); }
.label { color: var(--muted); font-size: .75rem; }
code.rule { background: var(--fail-bg); color: #82071e; padding: 0 .3rem; border-radius: 4px; font-weight: 700; }
.finding.warning code.rule { background: var(--warn-bg); color: var(--warn); }
code.pointer { background: #eef1f4; color: var(--ink); padding: 0 .3rem; border-radius: 4px; }
.finding-hint { color: #424a53; margin-top: .15rem !important; }
a.rule-link { text-decoration: none; }
/* A finding that repeats a problem drawn before: one line, unfolded on demand, side by side with the other repeats. */
.findings:has(> .repeat) { display: flex; flex-wrap: wrap; }
.findings:has(> .repeat) > .finding { flex: 1 1 100%; }
.findings:has(> .repeat) > .finding.repeat { flex: 0 1 auto; padding: .1rem .5rem; }
.finding.repeat summary { cursor: pointer; }
.finding.repeat details[open] summary { margin-bottom: .15rem; }
/* A conversation that only repeats problems drawn before: folded under its heading. */
.conversation-fold > summary { cursor: pointer; color: var(--focus); font-size: .85rem; }
.conversation-fold[open] > summary { margin-bottom: .6rem; }
/* What to fix: each problem once, above the matrix; the scenario files' problems below it. */
#what-to-fix, #scenario-files { margin-bottom: 1.5rem; }
.digest-title { font-weight: 700; }
.problems { max-width: 60rem; }
.problem-number { font-weight: 800; margin-right: .3rem; }
.problem-where { margin-top: .3rem !important; color: var(--muted); font-size: .8rem; }
.problem-links { list-style: none; margin: .1rem 0 0; padding: 0; display: flex; flex-wrap: wrap; gap: .15rem .8rem; font-size: .8rem; }
.rules { display: grid; gap: .35rem; margin: 0; font-size: .86rem; }
.rule-entry dt { font-weight: 700; }
.rule-entry dd { margin: 0 0 0 1rem; color: #424a53; }
.rule-level { color: var(--muted); font-size: .72rem; letter-spacing: .04em; }

.look-whatsapp { --head-bg: #008069; --head-fg: #fff; --avatar-bg: #dfe5e7; --avatar-fg: #54656f; --chat-bg: #efeae2; --person-bg: #d9fdd3; --person-fg: #111b21; --person-meta: #4f6b57;
  --agent-bg: #fff; --agent-fg: #111b21; --agent-border: 0; --meta: #54656f; --ticks: #027eb5; --tail: 2px; --link: #0a7ea4; --quote: #06a17b; --person-quote: #06a17b; --person-quote-bg: rgba(0, 0, 0, .05);
  --chip-bg: #fff; --chip-fg: #0a7ea4; --chip-border: 0; --chip-radius: 8px; --list-accent: #008069; --sys-bg: #fff; --sys-fg: #54656f; --reaction-bg: #fff;
  --composer-bg: #fff; --composer-fg: #54656f; --composer-line: #fff; }
.look-imessage, .look-sms { --head-bg: #f2f2f7; --head-fg: #000; --avatar-bg: #a5a9b3; --avatar-fg: #fff; --chat-bg: #fff; --person-bg: #0b6fe0; --person-fg: #fff; --person-meta: #fff;
  --agent-bg: #e9e9eb; --agent-fg: #000; --agent-border: 0; --meta: #5f5f64; --ticks: #e8f0ff; --tail: 18px; --link: #0a5fc2; --quote: #8e8e93; --person-quote: #fff; --person-quote-bg: rgba(0, 0, 0, .2);
  --chip-bg: #fff; --chip-fg: #1f2328; --chip-border: 1px solid #c7c7cc; --chip-radius: 18px; --list-accent: #5f5f64; --sys-bg: transparent; --sys-fg: #5f5f64; --reaction-bg: #e9e9eb;
  --composer-bg: #fff; --composer-fg: #5f5f64; --composer-line: #c7c7cc; }
.look-imessage .meta, .look-sms .meta, .look-web .from-person .meta, .look-generic .from-person .meta { display: none; }
.look-imessage .turn-chip, .look-sms .turn-chip { box-shadow: none; }
.look-imessage .bubble, .look-sms .bubble { border-radius: 18px; padding: .4rem .75rem .2rem; box-shadow: none; }
.look-imessage .phone-head, .look-sms .phone-head { border-bottom: 1px solid #d1d1d6; flex-direction: column; gap: .2rem; text-align: center; }
.look-imessage .phone-title, .look-sms .phone-title { align-items: center; }
.look-sms { --person-bg: #1f7a35; }
.look-telegram { --head-bg: #4a76a0; --head-fg: #fff; --avatar-bg: #7fb3e0; --avatar-fg: #0d2a45; --chat-bg: #c4dab0; --person-bg: #effdde; --person-fg: #000; --person-meta: #3f7a3f;
  --agent-bg: #fff; --agent-fg: #000; --agent-border: 0; --meta: #5c6b7a; --ticks: #3f9a3f; --tail: 4px; --link: #2a6bb0; --quote: #3a87d0; --person-quote: #3f9a3f; --person-quote-bg: rgba(63, 154, 63, .1);
  --chip-bg: #4f7553; --chip-fg: #fff; --chip-border: 0; --chip-radius: 8px; --list-accent: #2a6bb0; --sys-bg: #4f7553; --sys-fg: #fff; --reaction-bg: #fff;
  --composer-bg: #fff; --composer-fg: #5c6b7a; --composer-line: #fff; }
.look-web { --head-bg: #1e293b; --head-fg: #fff; --avatar-bg: #4338ca; --avatar-fg: #fff; --chat-bg: #f1f5f9; --person-bg: #4338ca; --person-fg: #fff; --person-meta: #fff;
  --agent-bg: #fff; --agent-fg: #0f172a; --agent-border: 1px solid #e2e8f0; --meta: #5b677a; --ticks: #e0e7ff; --tail: 4px; --link: #4338ca; --quote: #6366f1; --person-quote: #e0e7ff; --person-quote-bg: rgba(0, 0, 0, .2);
  --chip-bg: #fff; --chip-fg: #4338ca; --chip-border: 1.5px solid #4338ca; --chip-radius: 999px; --list-accent: #4338ca; --sys-bg: #e2e8f0; --sys-fg: #334155; --reaction-bg: #fff;
  --composer-bg: #fff; --composer-fg: #5b677a; --composer-line: #cbd5e1; }
.look-web .bubble { border-radius: 14px; }
.look-generic { --head-bg: #374151; --head-fg: #fff; --avatar-bg: #9ca3af; --avatar-fg: #111827; --chat-bg: #f3f4f6; --person-bg: #dbeafe; --person-fg: #1e3a8a; --person-meta: #1e3a8a;
  --agent-bg: #fff; --agent-fg: #111827; --agent-border: 1px solid #e5e7eb; --meta: #4b5563; --ticks: #1d4ed8; --tail: 4px; --link: #1d4ed8; --quote: #6b7280; --person-quote: #1d4ed8; --person-quote-bg: rgba(0, 0, 0, .05);
  --chip-bg: #fff; --chip-fg: #1d4ed8; --chip-border: 1px solid #93c5fd; --chip-radius: 8px; --list-accent: #1d4ed8; --sys-bg: #e5e7eb; --sys-fg: #374151; --reaction-bg: #fff;
  --composer-bg: #fff; --composer-fg: #4b5563; --composer-line: #d1d5db; }

.page-foot { color: var(--muted); font-size: .82rem; margin: 2.5rem 0 2rem; }

@media (max-width: 52rem) {
  .phone { --lane: 100%; }
  .row { grid-template-columns: minmax(0, 1fr); }
  .notes { background: var(--chat-bg); padding: 0 .75rem .4rem; }
  .notes:empty { display: none; }
  .notes:has(.finding) { border-left: 0; }
}

@media print {
  body { background: #fff; font-size: 11pt; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .toolbar, .skip, .back { display: none !important; }
  body.only-failures .case, body.only-failures .channel-group { display: block !important; }
  .report-head { border: 0; }
  .cases { display: block; }
  .case { break-inside: auto; border-width: 1px 1px 1px 6px; margin-bottom: 1rem; }
  .case.compact { break-inside: avoid; }
  .case-head, .row, .matrix tr { break-inside: avoid; }
  .phone { --lane: 21rem; }
  .row { grid-template-columns: var(--lane) minmax(0, 1fr); }
  a { color: inherit; text-decoration: none; }
  .table-wrap { overflow: visible; border: 0; padding: 0; }
  details::details-content { content-visibility: visible; display: block; }
}
`;
