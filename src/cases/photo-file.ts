/**
 * The photo the cases send: fixtures/photo.jpg, a real 1280×960 JPEG of 217,942 bytes (see
 * fixtures/README.md), shipped in the package beside dist/ (package.json "files"). It is read the
 * first time a case sends it, never at start-up: embedded in the bundle, its 290 KB of base64 would
 * be parsed by every `check-endpoint` start, --version and --help included.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Attachment } from '../core/request.js';

const PHOTO = { file: 'photo.jpg', mime: 'image/jpeg' } as const;

/** The folders this module may run from: src/cases/ (sources), dist/ (the command), dist/chunks/ (the library). */
const MAX_LEVELS_UP = 3;

/** fixtures/photo.jpg of the package this module belongs to, found by walking up from this module's file. */
function photoPath(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (let level = 0; level <= MAX_LEVELS_UP; level++) {
    const candidate = join(folder, 'fixtures', PHOTO.file);
    if (existsSync(candidate)) return candidate;
    folder = dirname(folder);
  }
  throw new Error(`check-endpoint: fixtures/${PHOTO.file} is missing beside its dist/ folder; reinstall the package`);
}

let photo: { bytes: Buffer; base64: string } | undefined;

function loaded(): { bytes: Buffer; base64: string } {
  if (!photo) {
    const bytes = readFileSync(photoPath());
    photo = { bytes, base64: bytes.toString('base64') };
  }
  return photo;
}

/** The photo's bytes, read on first use. */
export function photoBytes(): Buffer {
  return loaded().bytes;
}

/** The photo as an `image` attachment of a person's message (one base64 string, shared by every turn that sends it). */
export function photoAttachment(): Attachment {
  return { kind: 'image', mime: PHOTO.mime, name: PHOTO.file, data: loaded().base64 };
}
