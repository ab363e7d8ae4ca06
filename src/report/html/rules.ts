import type { Report } from '../../core/report.js';
import { type Markup, h, slug } from './markup.js';

/** The anchor of a rule's entry on the page, which every finding's rule links to. */
export function ruleAnchor(rule: string): string {
  return `rule-${slug(rule)}`;
}

/** The run's rules: each one's level, what it requires, and the contract's section that states it. */
export function renderRules(report: Report): Markup | '' {
  const rules = Object.entries(report.rules);
  if (rules.length === 0) return '';
  return h`<section id="rules" aria-labelledby="rules-title">
    <h2 id="rules-title">Rules</h2>
    <dl class="rules">
      ${rules.map(
        ([id, facts]) => h`<div id="${ruleAnchor(id)}" class="rule-entry">
          <dt><code>${id}</code> <span class="rule-level">${facts.level === 'must' ? 'MUST' : 'SHOULD'}</span></dt>
          <dd>
            ${facts.statement}
            ${facts.section ? h`<a class="rule-section" href="${facts.section}" rel="noopener noreferrer">the contract's section</a>` : ''}
          </dd>
        </div>`,
      )}
    </dl>
  </section>`;
}
