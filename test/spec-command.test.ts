/**
 * `check-endpoint spec`: the contract's files, printed as the package ships them or written into a
 * folder whose files work together offline: the JSON Schemas found by their `$id`s, their relative
 * `$ref`s resolved there (the report schema's platform limits), the OpenAPI document's `$ref`s
 * resolved beside it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { SPEC_FILES, referencedFiles } from '../src/commands/spec.js';
import { createAjv } from '../src/contract/ajv.js';
import { ROOT, runCli } from './helpers.js';

const temporary: string[] = [];
after(() => {
  for (const folder of temporary) rmSync(folder, { recursive: true, force: true });
});

function newFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'check-endpoint-spec-'));
  temporary.push(folder);
  return folder;
}

describe('check-endpoint spec', () => {
  for (const [name, { file }] of Object.entries(SPEC_FILES)) {
    test(`spec ${name} prints spec/${file} as shipped`, async () => {
      const printed = await runCli(['spec', name]);
      assert.equal(printed.code, 0, printed.stderr);
      assert.equal(printed.stdout, readFileSync(join(ROOT, 'spec', file), 'utf8'));
    });
  }

  test('spec with no name lists the files; a name that is none is exit 2 with a did-you-mean', async () => {
    const listed = await runCli(['spec']);
    assert.equal(listed.code, 0, listed.stderr);
    for (const { file } of Object.values(SPEC_FILES)) assert.match(listed.stdout, new RegExp(` ${file.replace(/\./g, '\\.')} `));
    const typo = await runCli(['spec', 'requst']);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /spec: there is no file "requst"; did you mean request\?/);
  });

  test('spec --out DIR writes every file, and they work together offline: schemas by $id, $refs resolved in the folder', async () => {
    const folder = newFolder();
    const written = await runCli(['spec', '--out', folder]);
    assert.equal(written.code, 0, written.stderr);
    const files = Object.values(SPEC_FILES).map((entry) => entry.file);
    assert.deepEqual(readdirSync(folder).sort(), [...files].sort());
    const ajv = createAjv();
    const ids: string[] = [];
    for (const file of files.filter((name) => name.endsWith('.json'))) {
      const schema = JSON.parse(readFileSync(join(folder, file), 'utf8')) as { $id: string };
      assert.equal(schema.$id, `https://check-endpoint.dev/spec/1.0/${file}`, `${file}'s $id`);
      ajv.addSchema(schema);
      ids.push(schema.$id);
    }
    // Compiling each by its $id resolves every $ref (report -> platform-limits) from the folder's files alone.
    for (const id of ids) assert.ok(ajv.getSchema(id), id);
    const limitsReport = ajv.getSchema('https://check-endpoint.dev/spec/1.0/report.schema.json#/$defs/limitsReport');
    assert.ok(limitsReport, 'the report schema resolves through its $id');
    // The OpenAPI document's $refs (./request.schema.json, ./response.schema.json) resolve beside it.
    const document = (await SwaggerParser.dereference(join(folder, 'agent-endpoint.openapi.yaml'))) as { openapi: string };
    assert.match(document.openapi, /^3\.1/);
  });

  test('spec NAME --out DIR writes that file and the files its $refs name', async () => {
    const folder = newFolder();
    const written = await runCli(['spec', 'report', '--out', folder]);
    assert.equal(written.code, 0, written.stderr);
    assert.deepEqual(readdirSync(folder).sort(), ['platform-limits.schema.json', 'report.schema.json']);
    assert.deepEqual(referencedFiles(readFileSync(join(ROOT, 'spec/agent-endpoint.openapi.yaml'), 'utf8')).sort(), [
      'request.schema.json',
      'response.schema.json',
    ]);
  });
});
