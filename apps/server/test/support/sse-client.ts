/** One Server-Sent Event as a client sees it. */
export interface ReceivedEvent {
  event: string;
  id: string | null;
  data: string;
}

/**
 * Reads a Server-Sent Events response until the server ends it, `stop` returns true or `signal`
 * aborts; comment lines are counted, not returned. Throws with the body when the answer is not 200.
 */
export async function readEvents(
  url: string,
  options: {
    headers?: Record<string, string>;
    signal?: AbortSignal;
    stop?: (events: ReceivedEvent[]) => boolean;
  } = {},
): Promise<{ events: ReceivedEvent[]; comments: number; ended: boolean }> {
  const response = await fetch(url, {
    headers: { accept: "text/event-stream", ...options.headers },
    ...(options.signal && { signal: options.signal }),
  });
  if (response.status !== 200 || !response.body)
    throw new Error(`SSE request answered ${response.status}: ${await response.text()}`);
  const events: ReceivedEvent[] = [];
  let comments = 0;
  let buffer = "";
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { events, comments, ended: true };
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event: ReceivedEvent = { event: "message", id: null, data: "" };
        const data: string[] = [];
        let isComment = true;
        for (const line of block.split("\n")) {
          if (line.startsWith(":")) continue;
          isComment = false;
          if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
          else if (line.startsWith("event:")) event.event = line.slice(6).trim();
          else if (line.startsWith("id:")) event.id = line.slice(3).trim();
        }
        if (isComment) {
          comments += 1;
          continue;
        }
        event.data = data.join("\n");
        events.push(event);
        if (options.stop?.(events)) return { events, comments, ended: false };
      }
    }
  } catch (error) {
    if (options.signal?.aborted) return { events, comments, ended: false };
    throw error;
  } finally {
    await reader.cancel().catch(() => {});
  }
}
