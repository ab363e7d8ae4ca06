/**
 * Whether the server at a URL's host and port completes a TLS handshake: an http:// URL whose
 * server closes the connection, or answers bytes that are not HTTP, may be an https port.
 */

/** Longest wait for the handshake. */
const HANDSHAKE_WAIT_MS = 2000;

export async function speaksTls(url: URL, waitMs = HANDSHAKE_WAIT_MS): Promise<boolean> {
  // node:tls brings TLS and crypto: loaded only when asked.
  const { connect } = await import('node:tls');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || 80);
  const isName = !/^[\d.]+$/.test(host) && !host.includes(':');
  return new Promise((resolve) => {
    const socket = connect({ host, port, rejectUnauthorized: false, ...(isName ? { servername: host } : {}) });
    const done = (speaks: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(speaks);
    };
    const timer = setTimeout(() => done(false), waitMs);
    socket.once('secureConnect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
  });
}
