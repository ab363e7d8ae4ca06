/**
 * The `{{now …}}` templates a scenario's text may hold (`{{now + 1d | date}}`): found, and rendered
 * from the scenario's `now` and `timezone`. Flow's full template language is not public; this
 * checker renders what its test docs show, an offset in whole units and an optional format:
 *
 * - offset: `+` or `-`, a whole number and a unit: `m` minutes, `h` hours, `d` days, `w` weeks;
 * - format: `date` (2026-12-05), `time` (14:30), `datetime` (2026-12-05 14:30), `weekday`
 *   (Saturday); none gives the ISO 8601 instant in the timezone (2026-12-05T14:30:00+01:00).
 *
 * A format it does not know is rendered as the ISO instant and listed as not checked, never an error.
 */

/** One `{{now …}}` in a text, where it starts, and what it asks for. */
export interface NowTemplate {
  /** The whole template, braces included. */
  text: string;
  /** Its offset in the text (UTF-16 units). */
  index: number;
  offsetMs: number;
  /** The format after `|`, or undefined for none. */
  format: string | undefined;
}

/** The formats `renderNow` knows. */
export const NOW_FORMATS = ['date', 'time', 'datetime', 'weekday'] as const;

const UNIT_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const TEMPLATE = /\{\{\s*now\s*(?:([+-])\s*(\d{1,6})\s*([mhdw]))?\s*(?:\|\s*([A-Za-z_][\w-]*)\s*)?\}\}/g;
/** Anything that starts like a now template, to tell a misspelt one (`{{ now + 1 day }}`) from none. */
const ANY_NOW = /\{\{\s*now\b[^}]*\}\}/g;

/** The templates in a text, and the `{{now…}}` spans it could not read. */
export function nowTemplates(text: string): { templates: NowTemplate[]; unreadable: { text: string; index: number }[] } {
  const templates: NowTemplate[] = [];
  for (const match of text.matchAll(TEMPLATE)) {
    const [whole, sign, amount, unit, format] = match;
    const offsetMs = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * Number(amount) * UNIT_MS[unit!]!;
    templates.push({ text: whole, index: match.index, offsetMs, format });
  }
  const read = new Set(templates.map((template) => template.index));
  const unreadable = [...text.matchAll(ANY_NOW)]
    .filter((match) => !read.has(match.index))
    .map((match) => ({ text: match[0], index: match.index }));
  return { templates, unreadable };
}

/** Whether a timezone is one the platform's clock knows (an IANA name such as Europe/Paris, or UTC). */
export function isKnownTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** The parts of an instant as a wall clock in a timezone shows them. */
function wallClock(instant: Date, timeZone: string): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'weekday', string> {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    weekday: 'long',
    hourCycle: 'h23',
  }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((candidate) => candidate.type === type)?.value ?? '';
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
    second: part('second'),
    weekday: part('weekday'),
  };
}

/** `+01:00`: how far the timezone's wall clock is from UTC at that instant. */
function utcOffset(instant: Date, timeZone: string): string {
  const clock = wallClock(instant, timeZone);
  const asUtc = Date.UTC(
    Number(clock.year),
    Number(clock.month) - 1,
    Number(clock.day),
    Number(clock.hour),
    Number(clock.minute),
    Number(clock.second),
  );
  const minutes = Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  const whole = Math.abs(minutes);
  return `${sign}${String(Math.floor(whole / 60)).padStart(2, '0')}:${String(whole % 60).padStart(2, '0')}`;
}

/** One template's text, at `now` in `timeZone` (UTC when the scenario gives none). */
export function renderNow(template: NowTemplate, now: Date, timeZone = 'UTC'): string {
  const instant = new Date(now.getTime() + template.offsetMs);
  const clock = wallClock(instant, timeZone);
  const date = `${clock.year}-${clock.month}-${clock.day}`;
  const time = `${clock.hour}:${clock.minute}`;
  switch (template.format) {
    case 'date':
      return date;
    case 'time':
      return time;
    case 'datetime':
      return `${date} ${time}`;
    case 'weekday':
      return clock.weekday;
    default:
      return `${date}T${time}:${clock.second}${utcOffset(instant, timeZone)}`;
  }
}

/** A text with every `{{now …}}` rendered. */
export function renderNowTemplates(text: string, now: Date, timeZone?: string): string {
  return text.replace(TEMPLATE, (whole) => {
    const [template] = nowTemplates(whole).templates;
    return template === undefined ? whole : renderNow(template, now, timeZone);
  });
}
