/**
 * A platform's display limits as a table for people: what it shows, every limit with its unit, the
 * reaction emoji it takes, the SMS encodings and segment sizes. The rules are read generically,
 * field by field as they were loaded: a field this module has no words for is still shown, under
 * a name made from its key, so a contract that grows a field is shown whole.
 */
import { forTerminal } from './escape.js';
import { wrap } from '../core/wrap.js';
import type { PlatformRules } from '../platforms/platform-rules.js';
import { unitName } from '../platforms/counting.js';

/** Where one platform's rules come from, as the header says it. */
export interface LimitsSource {
  channel: string;
  /** `the contract 1.0 (bundled)`, `--limits acme.json`. */
  from: string;
}

/** Short names of the counting units, for table cells; another unit is named as counting.ts names it. */
const SHORT_UNITS: Readonly<Record<string, string>> = {
  codepoints: 'code points',
  utf16: 'UTF-16 code units',
  sms: 'GSM-7 septets or UCS-2 code units',
};

/** What each feature is, in the words of the table. */
const FEATURES: Readonly<Record<string, string>> = {
  text: 'text',
  buttons: 'buttons',
  list: 'list',
  link: 'link button',
  image: 'image',
  reaction: 'reaction',
  template: 'template',
  replyTo: 'replyTo (quote)',
  segments: 'SMS segments',
};

/** What each limit is. Keys not here are named from the key (`rowIdMaxLength` → `row id max length`). */
const LIMITS: Readonly<Record<string, string>> = {
  'text.maxLength': 'length',
  'text.softLength': 'one chat bubble',
  'buttons.maxCount': 'buttons',
  'buttons.labelMaxLength': 'label length',
  'buttons.idMaxLength': 'id length',
  'buttons.idMaxBytes': 'id size',
  'buttons.bodyMaxLength': 'text above them',
  'list.maxSections': 'sections',
  'list.maxRows': 'rows, all sections together',
  'list.buttonMaxLength': 'opener label length',
  'list.sectionTitleMaxLength': 'section title length',
  'list.sectionTitleRequiredWhenSeveral': 'section titles needed with several sections',
  'list.rowTitleMaxLength': 'row title length',
  'list.rowDescriptionMaxLength': 'row description length',
  'list.rowIdMaxLength': 'row id length',
  'list.bodyMaxLength': 'text above it',
  'link.labelShown': 'label shown',
  'link.labelMaxLength': 'label length',
  'link.bodyMaxLength': 'text above it',
  'image.mimeTypes': 'types (data images)',
  'image.maxBytes': 'size (data images)',
  'image.captionMaxLength': 'caption length',
  'reaction.emoji': 'emoji',
  'segments.gsm7': 'GSM-7 encoding',
  'segments.ucs2': 'UCS-2 encoding',
  'markdown.renders': 'Markdown it renders',
  'markdown.bold': 'its own bold mark',
};

const SUPPORT: Readonly<Record<string, string>> = { yes: 'yes', no: 'no (not sent)', ignored: 'ignored (sent without it)' };
/** Features every platform shows, whose rules carry no `support`. */
const ALWAYS_SHOWN = new Set(['text']);

/** Fields about the platform as a whole, shown in the header and the sources line, not as features. */
const ABOUT = new Set(['title', 'counting', 'sources']);

const EMOJI_PER_LINE = 20;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `rowIdMaxLength` → `row id max length`. */
export function words(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

/** A counting unit's short name, for a cell: `UTF-16 code units`; a unit this module has no name for, as the contract writes it. */
export function unitOf(counting: unknown): string {
  const name = typeof counting === 'string' ? counting : JSON.stringify(counting);
  return SHORT_UNITS[name] ?? name;
}

/** A count as the contract writes it (4096); sizes in bytes get separators (5,242,880). */
function grouped(value: number): string {
  return value.toLocaleString('en-US');
}

function mebibytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? ` (${mib} MiB)` : '';
}

/** A segment size: `160 septets in one segment, 153 a segment when split`. */
function segmentSize(encoding: string, value: Record<string, unknown>): string | undefined {
  const { single, concatenated } = value;
  if (typeof single !== 'number' || typeof concatenated !== 'number' || Object.keys(value).length !== 2) return undefined;
  const unit = encoding === 'gsm7' ? 'septets' : encoding === 'ucs2' ? 'UTF-16 code units' : 'units';
  return `${single} ${unit} in one segment, ${concatenated} a segment when split`;
}

/** One limit's value as a cell: with its unit where it has one. Lines, for a long list of emoji. */
function valueLines(feature: string, key: string, value: unknown, unit: string): string[] {
  if (typeof value === 'number') {
    if (/MaxLength$|^maxLength$/.test(key)) return [`at most ${value} ${unit}`];
    if (key === 'softLength') return [`at most ${value} ${unit}, or a warning (rule bubbles)`];
    if (key === 'idMaxBytes') return [`at most ${value} bytes (UTF-8)`];
    if (/MaxBytes$|^maxBytes$/.test(key)) return [`at most ${grouped(value)} bytes${mebibytes(value)}`];
    if (/^max|Max/.test(key)) return [`at most ${value}`];
    return [String(value)];
  }
  if (typeof value === 'boolean') return [value ? 'yes' : 'no'];
  if (feature === 'reaction' && key === 'emoji') {
    if (value === 'any') return ['any one emoji'];
    if (Array.isArray(value)) {
      const lines = [`only these ${value.length}, exactly as written:`];
      for (let index = 0; index < value.length; index += EMOJI_PER_LINE)
        lines.push(
          value
            .slice(index, index + EMOJI_PER_LINE)
            .map(String)
            .join(' '),
        );
      return lines;
    }
  }
  // An empty list is said as none (SMS renders no Markdown), never as an empty cell.
  if (Array.isArray(value))
    return [value.length === 0 ? 'none' : value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join(', ')];
  if (isRecord(value)) {
    const size = feature === 'segments' ? segmentSize(key, value) : undefined;
    if (size !== undefined) return [size];
    return [
      Object.entries(value)
        .map(([name, item]) => `${words(name)}: ${valueLines(feature, name, item, unit).join(' ')}`)
        .join('; '),
    ];
  }
  return [typeof value === 'string' ? value : JSON.stringify(value)];
}

interface Row {
  feature: string;
  shown: string;
  limit: string;
  value: string;
}

/** A feature's rows: its support, then one row per limit (a feature with neither gets one row). */
function featureRows(feature: string, rules: unknown, platformUnit: string): Row[] {
  const name = FEATURES[feature] ?? words(feature);
  if (!isRecord(rules))
    return [{ feature: name, shown: '', limit: '', value: valueLines(feature, feature, rules, platformUnit).join(' ') }];
  const support = typeof rules.support === 'string' ? (SUPPORT[rules.support] ?? rules.support) : ALWAYS_SHOWN.has(feature) ? 'yes' : '';
  // A feature may count in its own unit.
  const unit = rules.counting !== undefined ? unitOf(rules.counting) : platformUnit;
  const rows: Row[] = [];
  for (const [key, value] of Object.entries(rules)) {
    if (key === 'support') continue;
    const limit = key === 'counting' ? 'lengths counted in' : (LIMITS[`${feature}.${key}`] ?? words(key));
    const lines = key === 'counting' ? [unit] : valueLines(feature, key, value, unit);
    lines.forEach((line, index) => rows.push({ feature: '', shown: '', limit: index === 0 ? limit : '', value: line }));
  }
  if (rows.length === 0) return [{ feature: name, shown: support, limit: '', value: '' }];
  rows[0] = { ...rows[0]!, feature: name, shown: support };
  return rows;
}

/** The table of one platform, as lines: a header, the rows in columns, the sources. */
export function formatPlatformLimits(rules: PlatformRules, source: LimitsSource, width = 100): string[] {
  const platformUnit = unitOf(rules.counting);
  const fields: [string, unknown][] = Object.entries(rules);
  const rows: Row[] = [
    { feature: 'what', shown: 'shown', limit: 'limit', value: '' },
    ...fields.filter(([key]) => !ABOUT.has(key)).flatMap(([key, value]) => featureRows(key, value, platformUnit)),
  ];
  const featureWidth = Math.max(...rows.map((row) => row.feature.length));
  const shownWidth = Math.max(...rows.map((row) => row.shown.length));
  const limitWidth = Math.max(...rows.map((row) => row.limit.length));
  const lines = [
    `${rules.title} (${source.channel}), from ${source.from}`,
    `Lengths are counted in ${unitName(rules.counting)}.`,
    ...rows.map((row) =>
      `  ${row.feature.padEnd(featureWidth)}  ${row.shown.padEnd(shownWidth)}  ${row.limit.padEnd(limitWidth)}  ${row.value}`.trimEnd(),
    ),
  ];
  for (const [key, value] of fields) {
    if (!ABOUT.has(key) || key === 'title' || key === 'counting') continue;
    const text = `${key === 'sources' ? 'Sources' : words(key)}: ${typeof value === 'string' ? value : JSON.stringify(value)}`;
    lines.push(...wrap(text, width - 2).map((line) => `  ${line}`));
  }
  // A --limits file's title, sources and notes are a file's text: shown, never obeyed.
  return lines.map(forTerminal);
}
