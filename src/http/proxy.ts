/**
 * The proxy a target is reached through, read from the environment as curl reads it:
 * `https_proxy`/`HTTPS_PROXY` for an https target (a CONNECT tunnel), `http_proxy`/`HTTP_PROXY` for
 * an http one (the lower-case name first), and `no_proxy`/`NO_PROXY` for the hosts reached directly.
 * A proxy URL's credentials go only to the proxy: never printed, logged or reported.
 */
import { BlockList, isIP } from 'node:net';
import { UsageError } from '../core/usage-error.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface ProxyChoice {
  /** The proxy, with its port always written and its credentials, if any. */
  url: URL;
  /** The variable it came from: `HTTPS_PROXY`, `http_proxy`, ... */
  variable: string;
  /** The proxy as it may be shown: `http://proxy.example:3128`, without credentials. */
  shown: string;
  /** The password of the proxy URL, decoded: a secret, redacted wherever it could show. */
  password: string | undefined;
}

/** The first of the names that is set and not empty (curl takes an empty variable as unset). */
function firstSet(env: Env, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') return { name, value: value.trim() };
  }
  return undefined;
}

/** Whether `no_proxy` keeps a host off the proxy: curl's rules (lib/noproxy.c). */
export function bypassesProxy(hostname: string, noProxy: string): boolean {
  const list = noProxy.trim();
  if (list === '') return false;
  if (list === '*') return true;
  const bare = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  // Entries are separated by commas (blanks around them are ignored).
  for (const raw of list.split(',')) {
    const entry = raw.trim().split(/\s/)[0] ?? '';
    if (entry === '') continue;
    if (family === 0) {
      // A host name: the entry itself, or a domain that holds it (`example.com` and `.example.com`
      // both cover `www.example.com`, never `notexample.com`). Trailing dots do not count.
      const name = bare.replace(/\.$/, '').toLowerCase();
      const domain = entry.replace(/\.$/, '').replace(/^\./, '').toLowerCase();
      if (domain !== '' && (name === domain || name.endsWith(`.${domain}`))) return true;
      continue;
    }
    // An IP address: an address or a CIDR range of the same family; a host name never matches it.
    const [address = '', bits] = entry.split('/');
    const entryFamily = isIP(address);
    if (entryFamily !== family) continue;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    const prefix = bits === undefined ? undefined : Number(bits);
    const range = new BlockList();
    if (prefix !== undefined && Number.isInteger(prefix) && prefix > 0 && prefix <= (family === 4 ? 32 : 128)) {
      range.addSubnet(address, prefix, type);
    } else if (bits === undefined || prefix === 0) range.addAddress(address, type);
    else continue;
    if (range.check(bare, type)) return true;
  }
  return false;
}

/** curl's default proxy ports: 1080 for an http proxy written without one, 443 for an https proxy. */
const DEFAULT_PORT: Record<string, string> = { 'http:': '1080', 'https:': '443' };

function badProxy(variable: string, why: string): UsageError {
  // The value is not repeated: it may hold a password.
  return new UsageError(`${variable} is not a proxy URL check-endpoint can use (${why}); write http://[user:password@]host:port`);
}

/** A proxy variable's value as a URL: a scheme-less `host:port` is http, as curl takes it. Throws UsageError naming the variable. */
export function parseProxyUrl(value: string, variable: string): URL {
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badProxy(variable, 'it does not parse as a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw badProxy(variable, `only http and https proxies are supported, not ${url.protocol.slice(0, 20)}`);
  }
  if (url.hostname === '') throw badProxy(variable, 'it names no host');
  // The URL parser leaves out a port that is the scheme's own: look at what was written.
  const authority = text.slice(text.indexOf('//') + 2).split(/[/?#]/)[0] ?? '';
  const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
  const written = /:(\d+)$/.exec(hostAndPort)?.[1];
  url.port = written ?? DEFAULT_PORT[url.protocol]!;
  try {
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    throw badProxy(variable, 'its user name or password is not percent-encoded right');
  }
  return url;
}

/** The proxy for this target under this environment, or undefined when it is reached directly. Throws UsageError for a malformed proxy URL. */
export function proxyFor(target: URL, env: Env): ProxyChoice | undefined {
  const names = target.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
  const set = firstSet(env, names);
  if (!set) return undefined;
  const noProxy = firstSet(env, ['no_proxy', 'NO_PROXY']);
  if (noProxy && bypassesProxy(target.hostname, noProxy.value)) return undefined;
  const url = parseProxyUrl(set.value, set.name);
  const port = url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port;
  return {
    url,
    variable: set.name,
    shown: `${url.protocol}//${url.host.replace(/:\d+$/, '')}:${port}`,
    password: url.password === '' ? undefined : decodeURIComponent(url.password),
  };
}
