/** The check cannot run as asked: a bad flag value, URL or token variable. The CLI exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
