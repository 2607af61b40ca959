import { timedJob } from './metrics.js';

/**
 * Runs `tick` every `intervalMs`, never two at once (a tick still running makes the next one skip),
 * a failure told to `onError` and the timer not keeping the process alive. Returns a stop function
 * that waits for the tick in flight. Background jobs (GTD expiry, trade bots) run on it.
 */
export function intervalJob(tick: () => Promise<unknown>, opts: { /** Counts and times its runs in the metrics. */ name: string; intervalMs: number; onError: (err: Error) => void }): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = timedJob(opts.name, tick)
      .catch((err: unknown) => opts.onError(err instanceof Error ? err : new Error(String(err))))
      .finally(() => {
        running = null;
      });
  }, opts.intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
