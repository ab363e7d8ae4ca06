/**
 * Whether git tracks a file: the developer's source, which --watch never takes for what the agent
 * writes (src/commands/agent-writes.ts). Asked of git itself (`git ls-files --error-unmatch`), so
 * its index is the answer; outside a repository, or without git, no file is tracked.
 */
/** `tracked(file)` for files relative to `folder`. */
export function gitTracked(folder: string): (file: string) => boolean {
  return (file) => {
    try {
      process
        .getBuiltinModule('node:child_process')
        .execFileSync('git', ['ls-files', '--error-unmatch', '--', file], { cwd: folder, stdio: 'ignore', timeout: 5000 });
      return true;
    } catch {
      return false;
    }
  };
}
