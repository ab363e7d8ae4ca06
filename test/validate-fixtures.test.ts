/**
 * The sample answers in fixtures/answers/: each file listed in manifest.json with its channel,
 * the person's message ids (when references are checked) and the exact findings expected, as
 * (rule, path, severity). An empty `expect` is a valid answer.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { RULES, validateAnswer } from '../src/index.js';
import { PLATFORMS, shape } from './answer-helpers.js';

interface ManifestEntry {
  file: string;
  channel: string;
  note?: string;
  personMessageIds?: string[];
  expect: { rule: (typeof RULES)[number]; path: string; severity: 'error' | 'warning' }[];
}

const dir = fileURLToPath(new URL('../fixtures/answers/', import.meta.url));
const manifest = JSON.parse(readFileSync(`${dir}manifest.json`, 'utf8')) as ManifestEntry[];

describe('fixtures/answers/manifest.json', () => {
  it('lists every sample answer once, and only those', () => {
    const files = readdirSync(dir)
      .filter((file) => file.endsWith('.json') && file !== 'manifest.json')
      .sort();
    assert.deepEqual(manifest.map((entry) => entry.file).sort(), files);
  });

  it('has at least 25 samples, valid and invalid, on every platform', () => {
    assert.ok(manifest.length >= 25, `${manifest.length} samples`);
    for (const channel of PLATFORMS) {
      const samples = manifest.filter((entry) => entry.channel === channel);
      assert.ok(
        samples.some((entry) => entry.expect.length === 0),
        `a valid sample on ${channel}`,
      );
      assert.ok(
        samples.some((entry) => entry.expect.length > 0),
        `an invalid sample on ${channel}`,
      );
    }
  });

  it('expects only known rules and severities', () => {
    for (const entry of manifest) {
      for (const expected of entry.expect) {
        assert.ok(RULES.includes(expected.rule), `${entry.file}: rule ${expected.rule}`);
        assert.ok(['error', 'warning'].includes(expected.severity), `${entry.file}: severity ${expected.severity}`);
      }
    }
  });
});

describe('each sample answer gives exactly the findings its manifest entry expects', () => {
  for (const entry of manifest) {
    it(`${entry.file} on ${entry.channel}${entry.note ? `: ${entry.note}` : ''}`, () => {
      const body: unknown = JSON.parse(readFileSync(`${dir}${entry.file}`, 'utf8'));
      const findings = validateAnswer(body, { channel: entry.channel, personMessageIds: entry.personMessageIds });
      assert.deepEqual(findings.map(shape).sort(), entry.expect.map(shape).sort());
    });
  }
});
