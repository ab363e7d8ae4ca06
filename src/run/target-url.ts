import { UsageError } from '../core/usage-error.js';

/** Parses and vets the agent's URL: http or https, no credentials in it. */
export function parseTargetUrl(text: string, tokenEnv: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`"${text}" is not a URL; give the agent's full URL, such as http://127.0.0.1:8080/agent`);
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
