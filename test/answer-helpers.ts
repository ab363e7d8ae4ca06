/** Shared helpers for the answer-validation tests (not a test file itself). */
import assert from 'node:assert/strict';
import type { Finding, PlatformRules } from '../src/index.js';
import { bundledContract } from '../src/index.js';

export const contract = bundledContract();

/** The five platforms the contract names. */
export const PLATFORMS = ['whatsapp', 'sms', 'imessage', 'telegram', 'web'] as const;

/** A known platform's rules, from the bundled contract. */
export function rulesOf(channel: string): PlatformRules {
  const rules = contract.platforms[channel];
  assert.ok(rules, `the contract has no platform "${channel}"`);
  return rules;
}

/** A limit that the test needs to exist, read from the contract (never a copied number). */
export function limit(value: number | undefined, what: string): number {
  assert.equal(typeof value, 'number', `the contract has no ${what}`);
  return value as number;
}

export function answer(...replies: unknown[]): { replies: unknown[] } {
  return { replies };
}

export function message(fields: Record<string, unknown>): Record<string, unknown> {
  return { type: 'message', ...fields };
}

/** A finding reduced to what the tests compare: `rule severity path`. */
export function shape(finding: Pick<Finding, 'rule' | 'severity' | 'path'>): string {
  return `${finding.rule} ${finding.severity} ${finding.path}`;
}

export function shapes(findings: readonly Finding[]): string[] {
  return findings.map(shape);
}

export function errorsOf(findings: readonly Finding[]): Finding[] {
  return findings.filter((finding) => finding.severity === 'error');
}

/** Base64 for `bytes` zero bytes: image data of an exact size. */
export function imageData(bytes: number): string {
  return Buffer.alloc(bytes).toString('base64');
}
