/**
 * Whether a URL's host is this machine: `localhost`, `::1` or `127.x.x.x` (the loopback names and
 * addresses), and, for what listens here, the unspecified `0.0.0.0` and `::` too (a connection to
 * them reaches this machine's listeners, but no one writes them as an agent's address on purpose).
 */

/** The host without the brackets of an IPv6 literal. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** localhost, ::1 or 127.x.x.x. */
export function isLoopback(url: URL): boolean {
  const host = hostOf(url);
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** A loopback host, or 0.0.0.0 or :: (what a --start agent's own address may say). */
export function isLoopbackOrUnspecified(url: URL): boolean {
  const host = hostOf(url);
  return isLoopback(url) || host === '0.0.0.0' || host === '::';
}
