/**
 * --explore's first phase: one conversation per shape of message a platform can deliver (the
 * contract's "What a person can send"), each as short as the shape allows. What the platform cannot
 * deliver (several files at once on WhatsApp or Telegram) is not sent, and said so.
 */
import type { PlatformRules } from '../../contract/contract.js';
import type { ExploreStep } from './explore-step.js';
import { EDGE_TEXTS, EVERYDAY_TEXTS, longestText } from './person-texts.js';
import { CAPTIONED_KINDS, PERSON_FILES, type PersonFile } from './person-files.js';

/** What a person can send where the platform's rules (a custom channel's, say) do not tell: WhatsApp's and Telegram's figures. */
export const PERSON_DEFAULTS = { textMaxLength: 4096, attachmentsAtOnce: 1, captionMaxLength: 1024 } as const;

/** A shape's conversation: its name, as coverage names it, and its steps. */
export interface ShapeConversation {
  name: string;
  steps: ExploreStep[];
}

/** What a person can send on a platform, its rules' `person` or the defaults. */
export function personLimits(rules: PlatformRules | undefined): {
  textMaxLength: number;
  attachmentsAtOnce: number;
  captionMaxLength: number;
} {
  return { ...PERSON_DEFAULTS, ...rules?.person };
}

/** The caption a file is sent with: what people write under a photo. */
const CAPTION = 'here is the receipt from yesterday, the total looks wrong?';

/** A choice no answer offers: a tap from a menu the agent forgot (a restart lost its state). */
export const NEVER_OFFERED = { id: 'chk_never_offered', title: 'Option 9' } as const;

/** The message-shape conversations for a platform, in a fixed order. */
export function messageShapes(rules: PlatformRules | undefined): { shapes: ShapeConversation[]; notSent: string[] } {
  const limits = personLimits(rules);
  const texts = [...EDGE_TEXTS, longestText(limits.textMaxLength)];
  const shapes: ShapeConversation[] = texts.map((edge) => ({ name: `text: ${edge.name}`, steps: [{ text: edge.text }] }));
  for (const file of PERSON_FILES) shapes.push({ name: `file: ${file.mime}, no text`, steps: [{ text: '', files: [file] }] });
  for (const kind of CAPTIONED_KINDS) {
    const file = PERSON_FILES.find((candidate) => candidate.kind === kind)!;
    shapes.push({ name: `file: ${file.mime} with a caption`, steps: [{ text: CAPTION.slice(0, limits.captionMaxLength), files: [file] }] });
  }
  const notSent: string[] = [];
  if (limits.attachmentsAtOnce >= 2) {
    const several: PersonFile[] = [PERSON_FILES[0]!, PERSON_FILES[1]!, PERSON_FILES.find((file) => file.kind === 'document')!].slice(
      0,
      limits.attachmentsAtOnce,
    );
    shapes.push({ name: `files: ${several.length} at once`, steps: [{ text: '', files: several }] });
  } else {
    notSent.push('several files in one message: the platform delivers one file a message');
  }
  shapes.push({ name: 'tap: a choice never offered', steps: [{ text: '', tap: { ...NEVER_OFFERED } }] });
  shapes.push({
    name: "quote: the person's own message",
    steps: [{ text: 'table for 2 at 7' }, { text: 'actually make it 8', quote: { from: 'person', turn: 1 } }],
  });
  shapes.push({
    name: "quote: the agent's message",
    steps: [{ text: EVERYDAY_TEXTS[0]! }, { text: 'what does this mean?', quote: { from: 'agent', turn: 1, reply: 0 } }],
  });
  return { shapes, notSent };
}
