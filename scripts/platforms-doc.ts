/**
 * docs/platforms.md's table of the platforms' limits, from the bundled contract's `x-platforms`:
 * `npm run build` writes it between the page's markers, and test/platforms-doc.test.ts holds it
 * current. A row per platform, in the contract's order; a column per feature the platforms' rules
 * name, in the order they first name it. Each cell is said from the rules by the kind of each
 * field (a count, a length, a size, a list, a flag), so a channel or a limit added to the contract
 * is in the table without an edit here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Contract, PlatformRules } from '../src/contract/contract.js';
import { bundledContract } from '../src/contract/load-contract.js';
import { unitOf, words } from '../src/report/limits-table.js';
import { SUPPORT_FEATURES, support as supportOf } from '../src/platforms/platform-rules.js';
import { rewritePage, withWrittenTable } from './written-table.js';

export const DOC_FILE = 'docs/platforms.md';
const BEGIN = "<!-- the table below is written from the contract's x-platforms by npm run build -->";

/** Fields about the platform as a whole: the row's name and the text column's unit, not columns. */
const ABOUT = new Set(['title', 'counting', 'sources']);
/** Features said in another feature's cell, after what leads them in: SMS's segments qualify its text. */
const SAID_IN: Readonly<Record<string, { cell: string; lead: string }>> = { segments: { cell: 'text', lead: 'over one segment warns' } };
/** Column heads that are not the feature's key as written. */
const HEADS: Readonly<Record<string, string>> = { replyTo: '`replyTo`', markdown: 'Markdown rendered' };
/** A feature's column head. */
export function headOf(feature: string): string {
  return HEADS[feature] ?? feature;
}

/** Names of limits shorter or clearer than their key's words (`list.buttonMaxLength` → `opener 20`). */
const NAMES: Readonly<Record<string, string>> = {
  'list.buttonMaxLength': 'opener',
  'list.maxRows': 'rows in all',
  'list.rowDescriptionMaxLength': 'description',
};
/** Flags said as words, true and false. Others: the key's words, or `no` and the key's words. */
const FLAGS: Readonly<Record<string, readonly [string, string]>> = {
  'link.labelShown': ['label shown', 'label not shown'],
  'list.sectionTitleRequiredWhenSeveral': ['section titles required with several sections', 'no section titles required'],
};
/** The Markdown syntax a platform renders (`x-platforms.*.markdown.renders`), as the cell says it. */
const SYNTAXES: Readonly<Record<string, string>> = {
  bold: 'bold',
  heading: 'headings',
  link: 'links',
  table: 'tables',
  'code-fence': 'code fences',
};
/** SMS encodings (`segments.gsm7`). */
const ENCODINGS: Readonly<Record<string, string>> = { gsm7: 'GSM-7', ucs2: 'UCS-2' };
/** A list longer than this is counted, not written out (Telegram's reaction emoji). */
const LISTED_AT_MOST = 6;
const MEDIA_TYPE = /^[a-z]+\/([a-z0-9.+-]+)$/i;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `JPEG or PNG`, `bold, links and tables`. */
function either(items: readonly string[], word: 'and' | 'or'): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} ${word} ${items.at(-1)!}`;
}

/** 5242880 → `5 MiB`; a size that is not whole mebibytes, in bytes. */
function size(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes.toLocaleString('en-US')} bytes`;
}

interface Where {
  channel: string;
  feature: string;
  /** The unit the feature's lengths count in, named only where it is not code points. */
  unit: string | undefined;
}

/** One field of a feature's rules, as a part of its cell. */
function part(where: Where, key: string, value: unknown): string {
  const { channel, feature, unit } = where;
  const path = `${feature}.${key}`;
  if (typeof value === 'number') {
    if (key === 'maxLength') return unit ? `${value} ${unit}` : String(value);
    if (key === 'softLength') return `soft ${value}`;
    if (key === 'maxCount') return `up to ${value}`;
    if (key === 'maxBytes') return size(value);
    const bytes = /^(.+)MaxBytes$/.exec(key);
    if (bytes) return `${NAMES[path] ?? words(bytes[1]!)} ${value} UTF-8 bytes`;
    const length = /^(.+)MaxLength$/.exec(key);
    if (length) return `${NAMES[path] ?? words(length[1]!)} ${value}`;
    const count = /^max([A-Z].*)$/.exec(key);
    if (count) return `${value} ${NAMES[path] ?? words(count[1]!)}`;
    return `${NAMES[path] ?? words(key)} ${value}`;
  }
  if (typeof value === 'boolean') {
    const [yes, no] = FLAGS[path] ?? [words(key), `no ${words(key)}`];
    return value ? yes : no;
  }
  if (feature === 'markdown' && key === 'renders' && Array.isArray(value))
    return value.length === 0
      ? 'none'
      : either(
          value.map((syntax) => SYNTAXES[text(syntax)] ?? text(syntax)),
          'and',
        );
  if (feature === 'markdown' && key === 'dialect' && typeof value === 'string') return `(${value})`;
  if (feature === 'markdown' && key === 'bold' && typeof value === 'string') return `its bold is \`${value}bold${value}\``;
  if (Array.isArray(value)) {
    const items = value.map(text);
    if (items.length === 0) return `${words(key)}: none`;
    // Media types by their subtype: JPEG or PNG.
    if (items.every((item) => MEDIA_TYPE.test(item)))
      return either(
        items.map((item) => MEDIA_TYPE.exec(item)![1]!.toUpperCase()),
        'or',
      );
    if (items.length > LISTED_AT_MOST)
      return `only its ${items.length} ${words(key)}, exactly as listed (\`check-endpoint limits ${channel}\`)`;
    return `${words(key)}: only ${items.join(' ')}`;
  }
  if (typeof value === 'string') return `${value} ${words(key)}`;
  if (feature === 'segments' && isRecord(value)) return `${ENCODINGS[key] ?? key} ${Object.values(value).map(text).join('/')}`;
  if (isRecord(value))
    return `${words(key)}: ${Object.entries(value)
      .map(([name, item]) => part(where, name, item))
      .join(', ')}`;
  return `${words(key)} ${text(value)}`;
}

/**
 * A feature's cell: its support, then its limits. Where the platform's rules leave the feature out,
 * what the checker takes then: shown or not, with no limit (`yes`, a template `no`), or, for a
 * feature with no support of its own (text, Markdown), `—`: nothing checked.
 */
function featureCell(where: Where, rules: unknown, platform: PlatformRules): string {
  if (rules === undefined) {
    const feature = SUPPORT_FEATURES.find((each) => each === where.feature);
    return feature === undefined ? '—' : supportOf(platform, feature);
  }
  if (!isRecord(rules)) return text(rules);
  const { support, counting, ...limits } = rules;
  const unit = counting === undefined ? where.unit : unitOf(counting);
  const parts = Object.entries(limits).map(([key, value]) => part({ ...where, unit }, key, value));
  if (counting !== undefined) parts.push(`in ${unitOf(counting)}`);
  if (support === 'no') return 'no';
  // `yes` is said where nothing else says the feature is shown: with no limits, or only flags (`yes, label not shown`).
  const onlyFlags = Object.values(limits).every((value) => typeof value === 'boolean');
  const said = support === undefined || (support === 'yes' && !onlyFlags) ? parts : [text(support), ...parts];
  if (said.length === 0) return '—';
  // The Markdown cell, whose parts are lists themselves: `links and code fences (MarkdownV2); its bold is `*bold*``.
  if (where.feature === 'markdown')
    return said.reduce((cell, each) => (cell === '' ? each : each.startsWith('(') ? `${cell} ${each}` : `${cell}; ${each}`), '');
  return said.join(', ');
}

/** A cell of a Markdown table: a pipe would end it. */
function escaped(cell: string): string {
  return cell.replace(/\|/g, '\\|');
}

/** The table, a row per platform of the contract, in its order. */
export function platformsTable(contract: Contract = bundledContract()): string {
  const platforms = Object.entries(contract.platforms);
  const columns = [
    ...new Set(platforms.flatMap(([, rules]) => Object.keys(rules).flatMap((key) => (ABOUT.has(key) ? [] : [SAID_IN[key]?.cell ?? key])))),
  ];
  const rows = platforms.map(([channel, rules]) => {
    const fields: Record<string, unknown> = { ...rules };
    const unit = rules.counting === 'codepoints' ? undefined : unitOf(rules.counting);
    const cells = columns.map((column) => {
      // The column's feature, then the features said in its cell (SMS's segments, in its text's).
      const said = Object.entries(SAID_IN).flatMap(([feature, { cell, lead }]) =>
        cell === column && fields[feature] !== undefined
          ? [`${lead} (${featureCell({ channel, feature, unit }, fields[feature], rules)})`]
          : [],
      );
      const own =
        fields[column] === undefined && said.length > 0 ? [] : [featureCell({ channel, feature: column, unit }, fields[column], rules)];
      return [...own, ...said].join('; ');
    });
    return `| ${[rules.title, ...cells].map(escaped).join(' | ')} |`;
  });
  const head = `| | ${columns.map(headOf).join(' | ')} |`;
  const rule = `|${'---|'.repeat(columns.length + 1)}`;
  return [head, rule, ...rows].join('\n');
}

/** The page's text with its table as the contract says. */
export function withTable(page: string, contract?: Contract): string {
  return withWrittenTable(page, DOC_FILE, BEGIN, platformsTable(contract));
}

/** Writes the table into the page; true when it changed. */
export function writePlatformsDoc(root: string): boolean {
  // The contract as this build just wrote it, read from the file: a module that imported it earlier holds the one before.
  const bundled = JSON.parse(readFileSync(join(root, 'src/generated/bundled-spec.json'), 'utf8')) as { contract: Contract };
  return rewritePage(root, DOC_FILE, (page) => withTable(page, bundled.contract));
}
