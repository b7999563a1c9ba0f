/** One server-sent event. */
export interface SseEvent {
  event: string;
  data: string;
  id: string | null;
}

/**
 * Opens an SSE stream with fetch and yields parsed events (no EventSource in Node 20).
 * Abort `signal` to close the stream.
 */
export async function* readSse(
  url: string,
  init: { headers?: Record<string, string>; signal: AbortSignal },
): AsyncGenerator<SseEvent> {
  const response = await fetch(url, {
    headers: { accept: "text/event-stream", ...init.headers },
    signal: init.signal,
  });
  if (!response.ok || !response.body)
    throw new Error(`SSE request failed with ${response.status}: ${await response.text()}`);
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk, { stream: true });
      let boundary = buffer.indexOf("\n\n");
      while (boundary !== -1) {
        const block = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        boundary = buffer.indexOf("\n\n");
        const event: SseEvent = { event: "message", data: "", id: null };
        const data: string[] = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
          else if (line.startsWith("event:")) event.event = line.slice(6).trim();
          else if (line.startsWith("id:")) event.id = line.slice(3).trim();
        }
        event.data = data.join("\n");
        yield event;
      }
    }
  } catch (error) {
    if (!init.signal.aborted) throw error;
  }
}
