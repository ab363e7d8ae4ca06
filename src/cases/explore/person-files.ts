/**
 * The files a person sends in --explore, one of each media type seen in practice (the contract's
 * "Captions and several files"): the fixed cases' real photo, voice note, video and PDF, and small
 * real files of the other common types (a PNG and a WebP image, an MP3 frame). Each is real bytes of
 * its type, so an agent that looks at the file sees what the type says.
 */
import documentFile from '../../generated/document.json' with { type: 'json' };
import videoFile from '../../generated/video.json' with { type: 'json' };
import voiceNote from '../../generated/voice-note.json' with { type: 'json' };
import type { Attachment } from '../../core/request.js';
import { photoAttachment } from '../photo-file.js';

export type FileKind = Attachment['kind'];

/** A file a step names: its kind and media type (its bytes are made when it is sent). */
export interface PersonFile {
  kind: FileKind;
  mime: string;
}

/** A 1×1 PNG (a valid image: signature, IHDR, IDAT, IEND). */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
/** A 1×1 lossy WebP (RIFF, VP8). */
const WEBP_1X1 = 'UklGRiQAAABXRUJQVlA4IBgAAAAwAQCdASoBAAEAAwA0JaQAA3AA/vuUAAA=';

/** Two silent MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz, joint stereo): 417 bytes each, header FF FB 90 64. */
function mp3Frames(): string {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat([frame, frame]).toString('base64');
}

/** Each media type --explore sends, by kind, with its file's name and bytes. */
const FILES: readonly (PersonFile & { name: string; data: () => string })[] = [
  { kind: 'image', mime: 'image/jpeg', name: 'photo.jpg', data: () => photoAttachment().data },
  { kind: 'image', mime: 'image/png', name: 'screenshot.png', data: () => PNG_1X1 },
  { kind: 'image', mime: 'image/webp', name: 'sticker.webp', data: () => WEBP_1X1 },
  { kind: 'audio', mime: voiceNote.mime, name: voiceNote.name, data: () => voiceNote.data },
  { kind: 'audio', mime: 'audio/mpeg', name: 'song.mp3', data: mp3Frames },
  { kind: 'video', mime: videoFile.mime, name: videoFile.name, data: () => videoFile.data },
  { kind: 'document', mime: documentFile.mime, name: documentFile.name, data: () => documentFile.data },
];

/** Every media type --explore sends, in a fixed order. */
export const PERSON_FILES: readonly PersonFile[] = FILES.map(({ kind, mime }) => ({ kind, mime }));

/** The kinds a caption comes with on the platforms (a photo, a video, a document; a voice note has none). */
export const CAPTIONED_KINDS: readonly FileKind[] = ['image', 'video', 'document'];

/** The attachment a step's file is sent as; an unknown type (from a kept conversation) as the first file of its kind. */
export function attachmentOf(file: PersonFile, position: number): Attachment {
  const known =
    FILES.find((candidate) => candidate.kind === file.kind && candidate.mime === file.mime) ??
    FILES.find((candidate) => candidate.kind === file.kind)!;
  const name = position === 0 ? known.name : known.name.replace(/(\.[a-z0-9]+)$/, `-${position + 1}$1`);
  return { kind: known.kind, mime: known.mime, name, data: known.data() };
}
