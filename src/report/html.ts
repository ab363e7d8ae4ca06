import type { CaseReport, ProblemReport, Report } from '../core/report.js';
import { digestTitle, findingsText, problemsOf } from './digest.js';
import { renderWhatToFix } from './html/what-to-fix.js';
import { type CaseAnchor, renderConversation } from './html/conversation.js';
import { type Markup, h, slug } from './html/markup.js';
import { type MatrixLayout, matrixLayout, renderMatrix } from './html/matrix.js';
import { renderLatencyChart } from './html/latency-chart.js';
import { PAGE_SCRIPT } from './html/script.js';
import { PAGE_STYLES } from './html/styles.js';
import { renderRules } from './html/rules.js';
import { contentSecurityPolicy, pageHead } from './html/policy.js';
import { renderScenarioFiles, scenarioFilesText } from './html/scenario-files.js';
import { count, plural } from './html/values.js';
import { stoppedSummary } from './human.js';

export { escapeHtml } from './html/markup.js';

/** Each case's fragment id, `case-<channel>-<case>`, unique within the page. */
function anchorCases(report: Report, problems: readonly ProblemReport[]): CaseAnchor[] {
  const byId = new Map(problems.map((problem) => [problem.id, problem]));
  const titles = new Map(report.channels.map((channel) => [channel.name, channel.title ?? channel.name]));
  const used = new Set<string>();
  return report.cases.map((caseReport: CaseReport) => {
    const base = `case-${slug(caseReport.channel)}-${slug(caseReport.id)}`;
    let anchor = base;
    for (let index = 2; used.has(anchor); index++) anchor = `${base}-${index}`;
    used.add(anchor);
    return { caseReport, anchor, channelTitle: titles.get(caseReport.channel) ?? caseReport.channel, problems: byId };
  });
}

/** The head's words on the scenario files with problems, linking to their section; none when there are none. */
function scenarioFilesNote(report: Report): Markup | '' {
  const text = scenarioFilesText(report);
  return text ? h` <a href="#scenario-files">${text}</a>.` : '';
}

function renderHead(report: Report): Markup {
  const { cases, passed, errors, warnings } = report.counts;
  const problems = problemsOf(report);
  const outcome = { passed: '✓ Passed', failed: '✗ Failed', error: '✗ Could not run', interrupted: '– Interrupted' }[report.outcome];
  const title = report.outcome === 'error' ? 'The check could not run' : `${count(passed)} of ${plural(cases, 'case')} passed`;
  return h`<header class="report-head">
    <div class="wrap">
      <p class="tool">check-endpoint ${report.tool.version} · contract ${report.spec.version} (${report.spec.source})</p>
      <h1><span class="outcome ${report.outcome}">${outcome}</span> ${title}</h1>
      <dl class="facts">
        <div>
          <dt>Agent</dt>
          <dd><code>${report.target}</code></dd>
        </div>
        <div>
          <dt>Channels</dt>
          <dd>${report.channels.length ? report.channels.map((channel) => channel.title ?? channel.name).join(', ') : 'none'}</dd>
        </div>
        <div>
          <dt>Problems</dt>
          <dd>${problems.length ? digestTitle(problems, report) : 'none.'} ${findingsText({ errors, warnings })}.${scenarioFilesNote(report)}</dd>
        </div>
        <div>
          <dt>Exit code</dt>
          <dd>${report.exitCode}</dd>
        </div>
      </dl>
      ${report.error ? h`<p class="run-error" role="alert">${report.error.message}</p>` : ''}
      ${report.stopped ? h`<p class="run-error" role="alert">${stoppedSummary(report)}</p>` : ''}
    </div>
  </header>`;
}

/** Every turn's answer time, over every play of the cases given. */
function latenciesOf(anchors: readonly CaseAnchor[]): number[] {
  return anchors.flatMap((anchor) => anchor.caseReport.plays.flatMap((play) => play.turns.map((turn) => turn.latencyMs)));
}

function renderConversations(layout: MatrixLayout, anchors: readonly CaseAnchor[], runs: number): Markup {
  const groups = layout.channels
    .map((channel) => ({ channel, anchors: anchors.filter((anchor) => anchor.caseReport.channel === channel.name) }))
    .filter((group) => group.anchors.length > 0);
  return h`${groups.map(({ channel, anchors: inGroup }) => {
    const id = `channel-${slug(channel.name)}`;
    const passed = inGroup.filter((anchor) => anchor.caseReport.passed).length;
    return h`<section class="channel-group" aria-labelledby="${id}">
      <h3 id="${id}">
        ${channel.title}${channel.title !== channel.name ? h` <span class="channel-name">${channel.name}</span>` : ''}
        <span class="group-tally">${count(passed)} of ${plural(inGroup.length, 'case')} passed</span>
      </h3>
      ${runs > 1 ? renderLatencyChart(channel.title, latenciesOf(inGroup)) : ''}
      <div class="cases">${inGroup.map(renderConversation)}</div>
    </section>`;
  })}`;
}

/**
 * The HTML chat preview of a report: one self-contained page (no network, no external assets)
 * with "What to fix" (each distinct problem once, linking to its conversations) and a matrix of
 * channels against cases at the top, then every case's conversation drawn the
 * way its channel's platform shows it, each finding beside the reply or turn it is about; the team's
 * scenario files with problems (not played) under "What to fix", each with its fix. Pure:
 * the same report gives the same page. Everything from the report is escaped.
 */
export function renderHtmlReport(report: Report): string {
  const problems = problemsOf(report);
  const anchors = anchorCases(report, problems);
  const layout = matrixLayout(report.channels, anchors);
  const failing = anchors.filter((anchor) => !anchor.caseReport.passed).length;
  const body = h`<a class="skip" href="#conversations-title">Skip to the conversations</a>
    ${renderHead(report)}
    <main class="wrap">
      ${anchors.length ? renderWhatToFix(report, problems, anchors) : ''}${renderScenarioFiles(report)}
      ${
        anchors.length
          ? h`<section id="matrix" aria-labelledby="matrix-title">
                <h2 id="matrix-title">Cases by channel</h2>
                ${renderMatrix(layout)}
                <div class="toolbar">
                  <button type="button" id="failures-toggle" class="toggle" aria-pressed="false" aria-controls="conversations" hidden>
                    Show only failures
                  </button>
                  <p id="toggle-status" class="toggle-status" role="status" aria-live="polite">
                    ${count(failing)} of ${plural(anchors.length, 'conversation')} failed.
                  </p>
                </div>
              </section>
              <section id="conversations" aria-labelledby="conversations-title">
                <h2 id="conversations-title">Conversations</h2>
                ${renderConversations(layout, anchors, report.runs)}
              </section>`
          : h`<p>No case ran.</p>`
      }
      ${renderRules(report)}
      <footer class="page-foot">
        <p>
          Drawn by check-endpoint ${report.tool.version} from its report. Each platform is imitated, not reproduced. This page loads
          nothing: images sent by URL are named, not shown. A reply struck through is one the platform would not send, the parts it refuses left out; each finding names
          its rule and a JSON pointer into that turn's answer.
        </p>
      </footer>
    </main>`;
  const title = `check-endpoint: ${report.outcome === 'error' ? 'could not run' : `${report.counts.passed} of ${report.counts.cases} cases passed`} · ${report.target}`;
  return `${pageHead(contentSecurityPolicy(PAGE_STYLES, PAGE_SCRIPT), title, PAGE_STYLES)}
<body>
${body}
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
