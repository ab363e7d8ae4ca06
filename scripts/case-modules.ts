/**
 * src/cases/case-modules.ts, from the case files themselves: every module of src/cases/extended/
 * and src/cases/quality/ that exports a case (an object with an id, a description and a `run`
 * function) is imported there and its cases listed, one tuple per folder, `as const` so that the
 * case ids stay a union of their literal types. A module that exports no case (a helper such as
 * quality/case-rule.ts) is left out. Each listed case must be of its folder's group and declare its
 * `order` (its place in play and in reports, which the registry sorts by). `npm run build`
 * (scripts/build.ts) writes the file; test/spec-ids.test.ts holds it equal to what this writes.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as prettier from 'prettier';

/** The generated module, from the project's root. */
export const CASE_MODULES_FILE = 'src/cases/case-modules.ts';

/** The folders of src/cases/ whose case files are found, the list each one's cases go in, and the group they must be of. */
export const CASE_FOLDERS = [
  { folder: 'extended', list: 'EXTENDED_CASE_MODULES', group: 'extended' },
  { folder: 'quality', list: 'QUALITY_CASE_MODULES', group: 'quality' },
] as const;

/** A case a case file exports: the file (from src/cases/), the export's name, and the case's id, group and order. */
interface FoundCase {
  file: string;
  name: string;
  id: string;
  group: unknown;
  order: unknown;
}

/** The cases one module exports, by export name. */
function casesIn(exports: Record<string, unknown>, file: string): FoundCase[] {
  return Object.entries(exports).flatMap(([name, value]) =>
    typeof value === 'object' &&
    value !== null &&
    'id' in value &&
    typeof value.id === 'string' &&
    'description' in value &&
    'run' in value &&
    typeof value.run === 'function'
      ? [{ file, name, id: value.id, group: 'group' in value ? value.group : undefined, order: 'order' in value ? value.order : undefined }]
      : [],
  );
}

/** Every case the case files of one folder export, in file-name order; a TypeError names a case of the wrong group or without its order. */
async function casesOf(casesDir: string, folder: string, group: string): Promise<FoundCase[]> {
  const files = readdirSync(join(casesDir, folder))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .sort();
  const found: FoundCase[] = [];
  for (const name of files) {
    const file = `${folder}/${name}`;
    const exports: Record<string, unknown> = await import(pathToFileURL(join(casesDir, file)).href);
    found.push(...casesIn(exports, file));
  }
  const orders = new Map<number, string>();
  for (const { file, id, group: its, order } of found) {
    if (its !== group) {
      throw new TypeError(
        `src/cases/${file}: the case ${id} is of group ${JSON.stringify(its)}; a case in src/cases/${folder}/ has group '${group}'`,
      );
    }
    if (typeof order !== 'number' || !Number.isFinite(order)) {
      throw new TypeError(
        `src/cases/${file}: the case ${id} declares no order; give it \`order: N\`, its place among the ${folder} cases in play and in reports (lowest first)`,
      );
    }
    const taken = orders.get(order);
    if (taken !== undefined)
      throw new TypeError(`src/cases/${file}: the case ${id} has order ${order}, as ${taken} has; give it one of its own`);
    orders.set(order, id);
  }
  return found;
}

/** The text of src/cases/case-modules.ts for the case files under `casesDir` (src/cases/), formatted as the project's prettier does. */
export async function caseModulesSource(casesDir: string): Promise<string> {
  const imports: string[] = [];
  const lists: string[] = [];
  const names = new Map<string, string>();
  for (const { folder, list, group } of CASE_FOLDERS) {
    const found = await casesOf(casesDir, folder, group);
    for (const { file, name } of found) {
      const other = names.get(name);
      if (other !== undefined) throw new TypeError(`src/cases/${file} and src/cases/${other} both export a case named ${name}; rename one`);
      names.set(name, file);
      imports.push(`import { ${name} } from './${file.replace(/\.ts$/, '.js')}';`);
    }
    lists.push(
      `/** The cases of src/cases/${folder}/, in file-name order (the registry plays them in their \`order\`). */`,
      `export const ${list} = [${found.map(({ name }) => name).join(', ')}] as const;`,
    );
  }
  const text = [
    '/**',
    ' * Written by `npm run build` (scripts/case-modules.ts) from the case files of src/cases/extended/ and',
    ' * src/cases/quality/: do not edit. A new case file there is listed when the build runs; the registry',
    ' * (registry.ts) reads these lists.',
    ' */',
    ...imports,
    '',
    ...lists,
    '',
  ].join('\n');
  const path = join(casesDir, 'case-modules.ts');
  return prettier.format(text, { ...(await prettier.resolveConfig(path)), filepath: path });
}

/** Writes src/cases/case-modules.ts under `root`; returns whether it changed. */
export async function writeCaseModules(root: string): Promise<boolean> {
  const path = join(root, CASE_MODULES_FILE);
  const text = await caseModulesSource(join(root, 'src/cases'));
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return false;
  writeFileSync(path, text);
  return true;
}
