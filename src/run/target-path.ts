/**
 * The `path` of a `{ fetch }` or `{ listener }` target: a path on the origin the checker gives the
 * handler, and nothing else. A URL parser reads `//host/x`, `/\host/x` (a backslash is a slash in
 * an http URL), `http://host/x` and `/../x` as more than a path: the first two as another host, to
 * which every request, token included, would be sent. Such a value is a TypeError naming the field.
 */

/** Where requests to a checked path may go: only this origin. */
const PROBE_ORIGIN = 'http://127.0.0.1';

/** Why `path` is not a path, or undefined when it is one. */
function notAPath(path: string): string | undefined {
  if (!path.startsWith('/')) return 'it must start with /';
  if (path.startsWith('//')) return 'it starts with //, which a URL reads as another host';
  if (path.includes('\\')) return 'it contains a backslash, which a URL reads as /, and /\\ as another host';
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'it contains a control character';
  const pathname = path.split(/[?#]/, 1)[0]!;
  let depth = 0;
  for (const segment of pathname.split('/').slice(1)) {
    const decoded = segment.toLowerCase().replaceAll('%2e', '.');
    if (decoded === '..') depth--;
    else if (decoded !== '.' && decoded !== '') depth++;
    if (depth < 0) return 'its .. segments go above the root';
  }
  if (new URL(path, PROBE_ORIGIN).origin !== PROBE_ORIGIN) return 'a URL reads it as another origin';
  return undefined;
}

/** The target's path (`/` when none is given); a TypeError naming the field `path` for anything that is not a path. */
export function targetPath(path: unknown): string {
  if (path === undefined) return '/';
  if (typeof path !== 'string') throw new TypeError(`the target's path must be a string starting with /; got ${typeof path}`);
  const why = notAPath(path);
  // Its query is not shown: it may carry a key.
  const shown = path.includes('?') ? `${path.slice(0, path.indexOf('?'))}?…` : path;
  if (why !== undefined) throw new TypeError(`the target's path must be a path such as /agent; ${why}: got ${JSON.stringify(shown)}`);
  return path;
}
