/**
 * What the chat page asks the server, read as untrusted input: each body a JSON object of known
 * keys, every value of its type and within its bounds; anything else is refused with the reason
 * (the server answers 400 with it).
 */
import type { Attachment } from '../core/request.js';
import { type ChatStep, SAMPLE_FILES, isSampleFile } from './chat-step.js';

/** The longest text a person sends from the page (WhatsApp's and Telegram's limit is 4,096; the page allows more, to test a limit). */
export const MAX_TEXT = 20_000;
/** The largest file of the person's own, decoded: the contract's 5 MB image. */
export const MAX_OWN_FILE_BYTES = 5 * 1024 * 1024;
/** The largest body the page sends: a 5 MB file as base64, and the JSON around it. */
export const MAX_PAGE_BODY_BYTES = 8 * 1024 * 1024;
/** Turns a conversation may hold; a tap or quote names one of them. */
export const MAX_TURN = 100_000;

export class PageRequestError extends Error {}

function fail(message: string): never {
  throw new PageRequestError(message);
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

/** Only these keys, each at most once (JSON.parse keeps the last of a repeated key: the object has each once). */
function onlyKeys(value: Record<string, unknown>, keys: readonly string[], what: string): void {
  const unknown = Object.keys(value).find((key) => !keys.includes(key));
  if (unknown !== undefined) fail(`${what} has an unknown key ${JSON.stringify(unknown.slice(0, 40))}; it takes ${keys.join(', ')}`);
}

function text(value: unknown, what: string, max: number): string {
  if (typeof value !== 'string') fail(`${what} must be a string`);
  if (value.length > max) fail(`${what} is longer than ${max.toLocaleString('en-US')} characters`);
  if (/[\uD800-\uDFFF]/u.test(value.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '')))
    fail(`${what} is not valid Unicode (a lone surrogate)`);
  return value;
}

function index(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_TURN) fail(`${what} must be a whole number from 0`);
  return value;
}

/** The body as JSON: its bytes UTF-8, within the limit the server read it under. */
export function parsePageBody(body: Buffer): unknown {
  if (body.length === 0) return {};
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return fail('the body is not UTF-8 JSON');
  }
}

/** `{ channel }`: a new conversation, or the conversation played again, on this channel. */
export function channelRequest(body: unknown): { channel: string | undefined } {
  const value = record(body, 'the request');
  onlyKeys(value, ['channel'], 'the request');
  return { channel: value.channel === undefined ? undefined : text(value.channel, 'channel', 32) };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function kindOf(mime: string): Attachment['kind'] {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  return 'document';
}

function fileOf(value: unknown): ChatStep['file'] {
  const file = record(value, 'file');
  if ('sample' in file) {
    onlyKeys(file, ['sample'], 'file');
    const sample = text(file.sample, 'file.sample', 40);
    if (!isSampleFile(sample)) fail(`file.sample must be one of ${Object.keys(SAMPLE_FILES).join(', ')}`);
    return { sample };
  }
  onlyKeys(file, ['name', 'mime', 'data'], 'file');
  const name = text(file.name, 'file.name', 200);
  const mime = text(file.mime, 'file.mime', 100).toLowerCase() || 'application/octet-stream';
  if (!/^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(mime)) fail('file.mime must be a media type such as image/png');
  const data = text(file.data, 'file.data', Math.ceil((MAX_OWN_FILE_BYTES * 4) / 3) + 4);
  if (!BASE64.test(data) || data.length % 4 !== 0) fail('file.data must be base64');
  if (data.length === 0) fail('the file is empty');
  return { own: { kind: kindOf(mime), mime, name: name || 'file', data } };
}

/** A message from the page: text, and a file, a tap or a quote. */
export function messageRequest(body: unknown): ChatStep {
  const value = record(body, 'the message');
  onlyKeys(value, ['text', 'file', 'tap', 'quote'], 'the message');
  const step: ChatStep = { text: value.text === undefined ? '' : text(value.text, 'text', MAX_TEXT) };
  if (value.file !== undefined) step.file = fileOf(value.file);
  if (value.tap !== undefined) {
    const tap = record(value.tap, 'tap');
    onlyKeys(tap, ['turn', 'reply', 'id'], 'tap');
    step.tap = { turn: index(tap.turn, 'tap.turn'), reply: index(tap.reply, 'tap.reply'), id: text(tap.id, 'tap.id', 1000) };
    if (step.text !== '' || step.file) fail('a tap is sent alone, as platforms send it: with no text and no file');
  }
  if (value.quote !== undefined) {
    const quote = record(value.quote, 'quote');
    onlyKeys(quote, ['from', 'turn', 'reply'], 'quote');
    if (quote.from !== 'person' && quote.from !== 'agent') fail('quote.from must be "person" or "agent"');
    step.quote = {
      from: quote.from,
      turn: index(quote.turn, 'quote.turn'),
      ...(quote.reply !== undefined ? { reply: index(quote.reply, 'quote.reply') } : {}),
    };
    if (step.tap) fail('a tap quotes the message that offered it: send no other quote with it');
  }
  return step;
}

/** `{ id, save }`: the conversation as a scenario file with this id; written into the scenarios folder when `save`. */
export function scenarioRequest(body: unknown): { id: string; save: boolean } {
  const value = record(body, 'the request');
  onlyKeys(value, ['id', 'save'], 'the request');
  if (value.save !== undefined && typeof value.save !== 'boolean') fail('save must be true or false');
  return { id: text(value.id, 'id', 100), save: value.save === true };
}
