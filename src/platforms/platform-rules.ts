import type { CountingUnit } from './counting.js';
import type { MarkdownSyntax } from './markdown.js';
import type { SegmentSize } from './sms-segments.js';

/** `yes`: shown; `no`: a reply carrying it is not sent; `ignored`: sent without it. */
export type Support = 'yes' | 'no' | 'ignored';

/** What one platform shows: one entry of the OpenAPI document's `x-platforms`, or a `--limits` file. */
export interface PlatformRules {
  title: string;
  counting: CountingUnit;
  sources?: string;
  /** `softLength`: past it one text reads as a wall, not a chat bubble (the `bubbles` warning). */
  text?: { maxLength?: number; softLength?: number };
  buttons?: {
    support: Support;
    maxCount?: number;
    labelMaxLength?: number;
    idMaxLength?: number;
    idMaxBytes?: number;
    bodyMaxLength?: number;
  };
  list?: {
    support: Support;
    maxSections?: number;
    maxRows?: number;
    buttonMaxLength?: number;
    sectionTitleMaxLength?: number;
    sectionTitleRequiredWhenSeveral?: boolean;
    rowTitleMaxLength?: number;
    rowDescriptionMaxLength?: number;
    rowIdMaxLength?: number;
    bodyMaxLength?: number;
  };
  link?: { support: Support; labelShown?: boolean; labelMaxLength?: number; bodyMaxLength?: number };
  image?: { support: Support; mimeTypes?: string[]; maxBytes?: number; captionMaxLength?: number };
  reaction?: { support: Support; emoji?: 'any' | string[] };
  template?: { support: Support };
  replyTo?: { support: Support };
  segments?: { gsm7: SegmentSize; ucs2: SegmentSize };
  /** The Markdown syntax the platform renders in a text, and how it writes bold itself (`*` on WhatsApp). */
  markdown?: { renders: MarkdownSyntax[]; dialect?: string; bold?: string };
  /** What a person can send on the platform (--explore generates within it): the longest text, files in one message, the longest caption. */
  person?: { textMaxLength?: number; attachmentsAtOnce?: number; captionMaxLength?: number };
}

/** The features a platform's rules say it shows or not (`support`). */
export const SUPPORT_FEATURES = ['buttons', 'list', 'link', 'image', 'replyTo', 'reaction', 'template'] as const;
export type SupportFeature = (typeof SUPPORT_FEATURES)[number];

/** Whether a platform shows a feature: as its rules say, else yes, but for templates (a WhatsApp feature). */
export function support(rules: PlatformRules, feature: SupportFeature): Support {
  return rules[feature]?.support ?? (feature === 'template' ? 'no' : 'yes');
}

/** The properties of an object type whose values are numbers. */
type NumberProperties<T> = { [K in keyof T & string]-?: NonNullable<T[K]> extends number ? K : never }[keyof T & string];

/** A number limit of the platform's rules, by its place in them: `buttons.maxCount`, `text.maxLength`. */
export type LimitKey = {
  [S in keyof PlatformRules & string]-?: NonNullable<PlatformRules[S]> extends object
    ? `${S}.${NumberProperties<NonNullable<PlatformRules[S]>>}`
    : never;
}[keyof PlatformRules & string];

/** A limit of a platform's rules by its key, or undefined where they give none (an absent limit is not known, and not checked). */
export function limitOf(rules: PlatformRules, key: LimitKey): number | undefined {
  const dot = key.indexOf('.');
  const section: unknown = rules[key.slice(0, dot) as keyof PlatformRules];
  const value: unknown = typeof section === 'object' && section !== null ? Reflect.get(section, key.slice(dot + 1)) : undefined;
  return typeof value === 'number' ? value : undefined;
}
