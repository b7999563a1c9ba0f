// Server-sent events: splitting a stream's text into events and reading an event's `data`.

/**
 * The first blank line ending a server-sent event in `text` at or after `from` (`\r?\n\r?\n`):
 * where the event stops and where the next begins; null until a whole one has arrived.
 */
export function findEventEnd(text: string, from: number): { at: number; next: number } | null {
  for (let newline = text.indexOf("\n", from); newline !== -1; newline = text.indexOf("\n", newline + 1)) {
    const after = text.charCodeAt(newline + 1);
    const at = newline > from && text.charCodeAt(newline - 1) === CR ? newline - 1 : newline;
    if (after === LF) return { at, next: newline + 2 };
    if (after === CR) {
      const afterCr = text.charCodeAt(newline + 2);
      if (afterCr === LF) return { at, next: newline + 3 };
      if (Number.isNaN(afterCr)) return null;
    }
    if (Number.isNaN(after)) return null;
  }
  return null;
}

/** The `data` of one event: its `data:` lines (one leading space dropped each), joined by newlines. */
export function eventData(event: string): string {
  if (event.startsWith("data:") && !event.includes("\n")) {
    return event.charCodeAt(5) === 32 ? event.slice(6) : event.slice(5);
  }
  return event
    .split(/\r?\n/)
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).replace(/^ /, ""))
    .join("\n");
}

const CR = 13;
const LF = 10;

/**
 * Splits server-sent events out of text as it arrives, handing each event's `data` to `onData`
 * (not the closing `[DONE]`, nor events without data). One event per token: each event's end is
 * found by index, never re-scanning or copying the rest.
 */
export class EventSplitter {
  private buffered = "";

  constructor(private readonly onData: (data: string) => void) {}

  push(text: string): void {
    this.buffered += text;
    let start = 0;
    const { buffered } = this;
    for (let end = findEventEnd(buffered, start); end !== null; end = findEventEnd(buffered, start)) {
      const data = eventData(buffered.slice(start, end.at));
      start = end.next;
      if (data !== "" && data !== "[DONE]") this.onData(data);
    }
    if (start > 0) this.buffered = buffered.slice(start);
  }
}
