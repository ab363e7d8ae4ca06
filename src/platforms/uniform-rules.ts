import type { PlatformRules } from './platform-rules.js';
import { emojiKey } from './emoji.js';

/** Rules with every field present; the reaction emoji also as comparison keys (U+FE0F left out). */
export type UniformRules = Required<Omit<PlatformRules, 'sources' | 'segments'>> &
  Pick<PlatformRules, 'sources' | 'segments'> & {
    reaction: NonNullable<PlatformRules['reaction']> & {
      emojiKeys: ReadonlySet<string> | undefined;
      /** The list as one line, for a finding's hint. */
      emojiLine: string | undefined;
    };
  };

/** Rules made uniform, each once: a run checks a handful of platforms, thousands of times each. */
const made = new WeakMap<PlatformRules, UniformRules>();

/**
 * The same rules with every field present (undefined where the platform has no such limit), in
 * one order, so every platform's rules share one shape. The checks read them for every reply:
 * one shape keeps those reads fast where five different shapes would not.
 */
export function uniformRules(rules: PlatformRules): UniformRules {
  const known = made.get(rules);
  if (known) return known;
  const allowed = rules.reaction?.emoji;
  const uniform: UniformRules = {
    title: rules.title,
    counting: rules.counting,
    sources: rules.sources,
    text: { maxLength: rules.text?.maxLength },
    buttons: {
      support: rules.buttons?.support ?? 'yes',
      maxCount: rules.buttons?.maxCount,
      labelMaxLength: rules.buttons?.labelMaxLength,
      idMaxLength: rules.buttons?.idMaxLength,
      idMaxBytes: rules.buttons?.idMaxBytes,
      bodyMaxLength: rules.buttons?.bodyMaxLength,
    },
    list: {
      support: rules.list?.support ?? 'yes',
      maxSections: rules.list?.maxSections,
      maxRows: rules.list?.maxRows,
      buttonMaxLength: rules.list?.buttonMaxLength,
      sectionTitleMaxLength: rules.list?.sectionTitleMaxLength,
      sectionTitleRequiredWhenSeveral: rules.list?.sectionTitleRequiredWhenSeveral,
      rowTitleMaxLength: rules.list?.rowTitleMaxLength,
      rowDescriptionMaxLength: rules.list?.rowDescriptionMaxLength,
      rowIdMaxLength: rules.list?.rowIdMaxLength,
      bodyMaxLength: rules.list?.bodyMaxLength,
    },
    link: {
      support: rules.link?.support ?? 'yes',
      labelShown: rules.link?.labelShown,
      labelMaxLength: rules.link?.labelMaxLength,
      bodyMaxLength: rules.link?.bodyMaxLength,
    },
    image: {
      support: rules.image?.support ?? 'yes',
      mimeTypes: rules.image?.mimeTypes,
      maxBytes: rules.image?.maxBytes,
      captionMaxLength: rules.image?.captionMaxLength,
    },
    reaction: {
      support: rules.reaction?.support ?? 'yes',
      emoji: allowed,
      emojiKeys: Array.isArray(allowed) ? new Set(allowed.map(emojiKey)) : undefined,
      emojiLine: Array.isArray(allowed) ? allowed.join(' ') : undefined,
    },
    template: { support: rules.template?.support ?? 'no' },
    replyTo: { support: rules.replyTo?.support ?? 'yes' },
    segments: rules.segments,
  };
  made.set(rules, uniform);
  return uniform;
}
