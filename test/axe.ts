/**
 * axe-core, the accessibility engine, run on a page opened in the browser test's Chromium. The
 * page's content security policy allows only its own script, so axe is not added as a script
 * element (addScriptTag would be refused): its source is evaluated through the DevTools protocol,
 * which the policy does not govern, and the page keeps the policy it is shipped with.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What a failed rule says, one line per element: enough to find and fix it. */
export function describeViolations(results: AxeResults): string {
  return results.violations
    .map((violation) => {
      const nodes = violation.nodes.map((node) => `    ${node.target.join(' ')}: ${node.failureSummary?.replace(/\s+/g, ' ') ?? ''}`);
      return [
        `  ${violation.id} (${violation.impact ?? 'no impact given'}, ${violation.nodes.length} elements): ${violation.help}`,
        ...nodes,
      ].join('\n');
    })
    .join('\n');
}

/** Runs every rule axe runs by default (WCAG 2.x A and AA, and its best practices) on the whole page. */
export async function runAxe(page: Page): Promise<AxeResults> {
  await page.evaluate(AXE_SOURCE);
  // The results are axe's own, serialized from the page.
  const results: AxeResults = await page.evaluate("axe.run(document, { resultTypes: ['violations'] })");
  return results;
}
