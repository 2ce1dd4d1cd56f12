/**
 * The one polling helper of the tests (server and sync): asks `check` every `everyMs` until it answers a
 * truthy value, and returns that value. A check that throws counts as "not yet" (a server still starting, a
 * row not there yet); the last error is in the time-out's message. `what` names what is awaited, as text or as
 * a function read at the time-out (to show the last thing seen).
 */
export async function eventually<T>(
  what: string | (() => string),
  check: () => T | false | null | undefined | Promise<T | false | null | undefined>,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() >= deadline) {
      const named = typeof what === 'string' ? what : what();
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${named}${last === undefined ? '' : `: ${String(last)}`}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
