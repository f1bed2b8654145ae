// Waiting on state, not on time: poll until a condition holds. The bound is a backstop against a hang, far above
// what a busy machine needs; reaching it fails the test with what was awaited, it never passes one.
export const POLL_BOUND_MS = 120_000;

/** Poll `check` every `everyMs` until it gives a truthy value (returned), or fail after `boundMs`. */
export async function until<T>(check: () => T | Promise<T>, what: string, boundMs = POLL_BOUND_MS, everyMs = 25): Promise<NonNullable<T>> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what} after ${boundMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
