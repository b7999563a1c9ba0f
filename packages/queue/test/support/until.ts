/**
 * Resolves once `check` holds, looking every 20 ms; fails with `what` after `timeoutMs` (a
 * liveness bound that stops a broken run from hanging, not a timing).
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
