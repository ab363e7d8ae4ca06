import { fullFormats } from 'ajv-formats/dist/formats.js';
import { EMOJI_FORMAT } from './ajv.js';

/** The formats the build's standalone answer validator refers to, as `formats.<name>`. */
export const standaloneFormats = { uri: fullFormats.uri, emoji: EMOJI_FORMAT };
