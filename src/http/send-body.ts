/**
 * Sends a request body as curl does, so that a server that refuses it early is heard: a large body
 * only once the server has said `100 Continue` (a server that refuses it by its size answers at
 * once, before a byte of it is sent), then in pieces, stopping at the first byte of an answer
 * ("HTTP error before end of send, stop sending").
 */
import type { ClientRequest } from 'node:http';

/** A large body goes out in pieces of this size, counted as the connection takes them. */
const PIECE_BYTES = 64 * 1024;

export interface BodySending {
  /** Wait for `100 Continue` (the request says `expect: 100-continue`), at most this long, before the first byte. */
  continueWaitMs?: number;
  /** True once the body must not go on: an answer came, or the exchange ended. */
  stopped: () => boolean;
  /** Told of each piece the connection took (handed to the system, not yet known to be read). */
  onSent: (bytes: number) => void;
}

/**
 * Writes `body` (`bodyBytes` long in UTF-8) on `request` and ends it, unless stopped first. Returns
 * a function that cancels a pending wait.
 */
export function sendBody(request: ClientRequest, body: string | Buffer | undefined, bodyBytes: number, sending: BodySending): () => void {
  const { onSent, continueWaitMs } = sending;
  if (body === undefined) {
    request.end();
    return () => {};
  }
  if (continueWaitMs === undefined) {
    // One write: the system takes a body of this size at once, and the answer is read after it. A
    // text goes as text: Node writes it with the headers in one string, where bytes take a writev.
    request.end(body, () => onSent(bodyBytes));
    return () => {};
  }
  return sendInPieces(request, typeof body === 'string' ? Buffer.from(body) : body, sending, continueWaitMs);
}

/** A large body: the headers now, the body after `100 Continue` (or the wait), a piece at a time. */
function sendInPieces(request: ClientRequest, body: Buffer, { stopped, onSent }: BodySending, continueWaitMs: number): () => void {
  const writeFrom = (offset: number): void => {
    for (let next = offset; next < body.length;) {
      if (stopped() || request.destroyed) return;
      const piece = body.subarray(next, next + PIECE_BYTES);
      next += piece.length;
      if (next >= body.length) return void request.end(piece, () => onSent(piece.length));
      const written = (failed: Error | null | undefined): void => {
        if (!failed) onSent(piece.length);
      };
      // A full buffer: the next piece waits for 'drain', which comes after the answer, if any, was read.
      if (!request.write(piece, written)) return void request.once('drain', () => writeFrom(next));
    }
  };
  // The headers go now; the body after `100 Continue`, or after the wait (a server that ignores `expect`).
  request.flushHeaders();
  let begun = false;
  const begin = (): void => {
    if (begun) return;
    begun = true;
    clearTimeout(timer);
    writeFrom(0);
  };
  const timer = setTimeout(begin, continueWaitMs);
  request.once('continue', begin);
  return () => clearTimeout(timer);
}
