/**
 * `explore` (--explore): after the fixed cases, on each channel, plays generated conversations under
 * a budget (message shapes, a crawl of every button and list row, walks as people have them), judges
 * every answer by every common rule, and reports each distinct problem as the smallest conversation
 * that still fails with it. See docs/explore.md.
 */
import type { Case } from '../case.js';
import { exploreChannel } from './explorer.js';

export const EXPLORE_CASE_ID = 'explore';

export const exploreCase: Case<'explore'> = {
  id: EXPLORE_CASE_ID,
  description:
    'Every message a platform can deliver (any text, files with captions, taps of any button or list row, old taps, quotes), in generated conversations, is answered by a valid answer.',
  scope: 'channel',
  group: 'explore',
  playsOnce: true,
  conversationsAtOnce: () => 1,
  run: exploreChannel,
};
