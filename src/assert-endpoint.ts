/**
 * `assertEndpoint`: the check as an assertion for any test runner (node:test, Vitest, Jest,
 * Mocha): it resolves with the report when every case passed, and rejects with node:assert's
 * AssertionError (`code: 'ERR_ASSERTION'`), which every runner prints well, its message what
 * failed in the command's words, without colour.
 */
import { AssertionError } from 'node:assert';
import type { Report } from './core/report.js';
import { NO_COLOURS } from './report/colour.js';
import { formatFailures } from './report/human.js';
import { type CheckEndpointOptions, type CheckTarget, checkEndpoint } from './run/check-endpoint.js';

export async function assertEndpoint(target: CheckTarget, options: CheckEndpointOptions = {}): Promise<Report> {
  const report = await checkEndpoint(target, options);
  if (report.outcome === 'passed') return report;
  // Operator `fail`, as assert.fail's own: runners print the message alone, with no actual-against-expected diff.
  throw new AssertionError({ message: formatFailures(report, NO_COLOURS).join('\n'), operator: 'fail', stackStartFn: assertEndpoint });
}
