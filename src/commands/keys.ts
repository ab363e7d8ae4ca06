/**
 * The keys a long-running command takes on its terminal: Enter, and q (or Ctrl-C, Ctrl-D) to quit.
 * On a terminal each key counts as it is pressed (raw mode); from a pipe, each line.
 */

/** Enter and q, as keys on a terminal (raw mode: Ctrl-C is a key too) or as lines of a pipe. Returns what stops listening. */
export function listenForKeys(onEnter: () => void, onQuit: () => void): () => void {
  const input = process.stdin;
  if (input.isTTY) {
    input.setRawMode(true);
    const onData = (chunk: Buffer): void => {
      for (const key of chunk.toString('utf8')) {
        if (key === '\r' || key === '\n') onEnter();
        else if (key === 'q' || key === 'Q' || key === '\u0003' || key === '\u0004') onQuit();
      }
    };
    input.on('data', onData);
    input.resume();
    return () => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
    };
  }
  const lines = process.getBuiltinModule('node:readline').createInterface({ input });
  lines.on('line', (line) => {
    const word = line.trim().toLowerCase();
    if (word === '') onEnter();
    else if (word === 'q' || word === 'quit') onQuit();
  });
  return () => {
    lines.close();
    input.destroy();
  };
}
