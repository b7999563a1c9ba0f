/** One chunk of a streamed generation: its tokens and when its decode time is over. */
export interface DueChunk {
  start: number;
  end: number;
  /** On `performance.now()`'s clock, in ms. */
  dueAtMs: number;
}

/**
 * Sends a generation's chunks as their decode time passes: each waits until it is due, never
 * less (at once
 * when late, so a late timer is caught up on rather than added to every later chunk), then one
 * turn of I/O (a client that left meanwhile is noticed before more is sent), then `send`. One
 * abort listener and one timer at a time for the whole stream (a promise, a listener and a
 * timer per chunk cost the simulator more than the chunk itself at thousands of chunks a second).
 * Rejects with the signal's reason on abort, or with what `send` throws.
 */
export function streamChunks(
  chunks: readonly DueChunk[],
  send: (chunk: DueChunk) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (chunks.length === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    let index = 0;
    let timer: NodeJS.Timeout | undefined;
    let immediate: NodeJS.Immediate | undefined;
    const stop = () => {
      signal?.removeEventListener("abort", onAbort);
      if (timer) clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
    };
    const fail = (error: unknown) => {
      stop();
      reject(error);
    };
    const onAbort = () => fail(signal?.reason);
    const sendNext = () => {
      immediate = undefined;
      const chunk = chunks[index] as DueChunk;
      try {
        send(chunk);
      } catch (error) {
        fail(error);
        return;
      }
      index += 1;
      if (index < chunks.length) waitForNext();
      else {
        stop();
        resolve();
      }
    };
    const afterDue = () => {
      timer = undefined;
      immediate = setImmediate(sendNext);
    };
    // A timer can fire early on `performance.now()`'s clock (see `sleepUntil`): the due time is
    // checked again when it fires, and waited for anew if not yet.
    const waitForNext = () => {
      timer = undefined;
      const delayMs = (chunks[index] as DueChunk).dueAtMs - performance.now();
      if (delayMs <= 0) afterDue();
      else timer = setTimeout(waitForNext, delayMs);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    waitForNext();
  });
}
