import { EMOJI_FORMAT } from './ajv.js';
import { isUri } from './uri-format.js';

/** The formats the build's standalone answer validator refers to, as `formats.<name>`. */
export const standaloneFormats = { uri: isUri, emoji: EMOJI_FORMAT };
