import { UsageError } from '../core/usage-error.js';
import { shownUrl, shownUrlText } from '../http/redact.js';

/** A host and port, then a path: `localhost:8080/agent`, `127.0.0.1:8080`, `[::1]:8080`, `agent.example.com/chat`. */
const HOST_AND_PATH = /^(?<host>\[[0-9a-f:.]+\]|[a-z0-9-]+(?:\.[a-z0-9-]+)*)(?<port>:\d{1,5})?(?:[/?].*)?$/i;

/**
 * The URL as given has no scheme but names a host, as `localhost:8080/agent`, `127.0.0.1:8080` or
 * `agent.example.com/chat` do: it is checked as http://, as curl does, and the run says so. A bare
 * word (`agent`) is not taken for a host.
 */
export function lacksScheme(text: string): boolean {
  const groups = HOST_AND_PATH.exec(text)?.groups;
  if (!groups) return false;
  const host = groups.host!;
  return groups.port !== undefined || host.startsWith('[') || host.includes('.') || host.toLowerCase() === 'localhost';
}

/** What the run says of a URL given without a scheme; undefined for one with a scheme. */
export function assumedSchemeNote(text: string, url: URL): string | undefined {
  return lacksScheme(text)
    ? `"${shownUrlText(text)}" has no scheme: checking ${shownUrl(url)} (as curl does); write https:// for an agent behind TLS`
    : undefined;
}

/** Parses and vets the agent's URL: http or https (http when none is given), no credentials in it. */
export function parseTargetUrl(text: string, tokenEnv: string): URL {
  let url: URL;
  try {
    url = new URL(lacksScheme(text) ? `http://${text}` : text);
  } catch {
    throw new UsageError(`"${shownUrlText(text)}" is not a URL; give the agent's full URL, such as http://127.0.0.1:8080/agent`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`the URL's scheme is ${url.protocol.replace(/:$/, '')}; check-endpoint speaks http and https only`);
  }
  if (url.username || url.password) {
    throw new UsageError(
      `the URL has credentials in it (user:pass@); leave them out and put the token in the ${tokenEnv} environment variable`,
    );
  }
  url.hash = '';
  return url;
}

/**
 * The target as every document writes it, even one the run could not use: parsed as the run parses
 * it where it can be (http:// added to `host:port/path`), its credentials and query values
 * `<redacted>` either way.
 */
export function shownTarget(text: string): string {
  try {
    const url = new URL(lacksScheme(text) ? `http://${text}` : text);
    url.hash = '';
    return shownUrl(url);
  } catch {
    return shownUrlText(text);
  }
}
