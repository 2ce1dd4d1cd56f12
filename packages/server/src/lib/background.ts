import type { Logger } from 'pino';

/** What a background job needs of its server (an AppContext is one): a log, and closers run at close. */
export interface BackgroundHost {
  log: Pick<Logger, 'error'>;
  closers: Array<() => Promise<void> | void>;
}

/**
 * Runs `work` every `ms` in the background of a server: never two at once (a slow run skips the ticks it
 * overlaps), a failure logged as `failed` and tried again at the next tick, the timer never keeping the process
 * alive, and close() stopping it and waiting for a run in progress.
 */
export function repeatInBackground(
  app: BackgroundHost,
  ms: number,
  failed: string,
  work: () => Promise<unknown>,
): void {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    running ??= work()
      .catch((err: unknown) => app.log.error({ err }, failed))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, ms);
  timer.unref();
  app.closers.push(async () => {
    clearInterval(timer);
    await running;
  });
}
