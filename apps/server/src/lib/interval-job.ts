import { timedJob } from './metrics.js';

/**
 * Runs `tick` every `intervalMs`, never two at once (a tick still running makes the next one skip),
 * a failure told to `onError` and the timer not keeping the process alive. Returns a stop function
 * that waits for the tick in flight. Background jobs (GTD expiry, trade bots) run on it.
 */
export function intervalJob<T>(
  tick: () => Promise<T>,
  opts: {
    /** Counts and times its runs in the metrics. */
    name: string;
    intervalMs: number;
    onError: (err: Error) => void;
    /** Told each finished tick's result (a locked job returns null when another instance held its lock). */
    onResult?: (result: T) => void;
  },
): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = timedJob(opts.name, tick)
      .then((out) => opts.onResult?.(out))
      .catch((err: unknown) => opts.onError(err instanceof Error ? err : new Error(String(err))))
      .finally(() => {
        running = null;
      });
  }, opts.intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
