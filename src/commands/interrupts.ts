/**
 * Ctrl-C and a cancelled CI job: the first SIGINT or SIGTERM interrupts the run (nothing new is
 * sent, turns in flight are aborted, what finished is reported); a second one exits at once.
 */
export interface Interrupts {
  signal: AbortSignal;
  /** Stops listening: the signals' default behaviour is back. */
  dispose(): void;
}

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

export function listenForInterrupts(onFirst: (signal: 'SIGINT' | 'SIGTERM') => void): Interrupts {
  const controller = new AbortController();
  const handlers = (['SIGINT', 'SIGTERM'] as const).map((name) => {
    const handler = (): void => {
      if (controller.signal.aborted) process.exit(EXIT_CODES[name]);
      controller.abort(name);
      onFirst(name);
    };
    process.on(name, handler);
    return () => process.removeListener(name, handler);
  });
  return { signal: controller.signal, dispose: () => handlers.forEach((remove) => remove()) };
}
