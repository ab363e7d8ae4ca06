/**
 * Written by `npm run build` (scripts/case-modules.ts) from the case files of src/cases/extended/ and
 * src/cases/quality/: do not edit. A new case file there is listed when the build runs; the registry
 * (registry.ts) reads these lists.
 */
import { documentCase } from './extended/document.js';
import { quoteOwn } from './extended/quote-own.js';
import { videoCase } from './extended/video.js';
import { voiceNoteCase } from './extended/voice-note.js';
import { auth } from './quality/auth.js';
import { concurrency } from './quality/concurrency.js';
import { forwardCompat } from './quality/forward-compat.js';
import { largeAttachment } from './quality/large-attachment.js';
import { latency } from './quality/latency.js';
import { longInput } from './quality/long-input.js';
import { malformed } from './quality/malformed.js';
import { retry } from './quality/retry.js';

/** The cases of src/cases/extended/, in file-name order (the registry plays them in their `order`). */
export const EXTENDED_CASE_MODULES = [documentCase, quoteOwn, videoCase, voiceNoteCase] as const;
/** The cases of src/cases/quality/, in file-name order (the registry plays them in their `order`). */
export const QUALITY_CASE_MODULES = [auth, concurrency, forwardCompat, largeAttachment, latency, longInput, malformed, retry] as const;
