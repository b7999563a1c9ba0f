import { describe, expect, it } from "vitest";
import { eventData, findEventEnd } from "./json-http-client";

/** Every event's data in `text`, split the way `postEventStream` splits a stream, fed in pieces of `size`. */
function events(text: string, size: number): string[] {
  const found: string[] = [];
  let buffered = "";
  for (let offset = 0; offset < text.length; offset += size) {
    buffered += text.slice(offset, offset + size);
    let start = 0;
    for (let end = findEventEnd(buffered, start); end !== null; end = findEventEnd(buffered, start)) {
      found.push(eventData(buffered.slice(start, end.at)));
      start = end.next;
    }
    buffered = buffered.slice(start);
  }
  return found;
}

/** The same with the regular expression the splitting must agree with. */
function eventsByRegex(text: string): string[] {
  const parts = text.split(/\r?\n\r?\n/);
  parts.pop();
  return parts.map((event) =>
    event
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).replace(/^ /, ""))
      .join("\n"),
  );
}

describe("server-sent event splitting", () => {
  const stream = [
    'data: {"a":1}\n\n',
    'data:{"b":2}\r\n\r\n',
    "data: one\ndata: two\n\n",
    ": comment\ndata: after a comment\r\n\n",
    "event: x\r\ndata:  two spaces\n\r\n",
    "data: \r in the middle\n\n",
    "data: [DONE]\n\n",
    "data: unfinished",
  ].join("");

  it("finds the same events as the blank-line pattern, however the bytes arrive", () => {
    const expected = eventsByRegex(stream);
    expect(expected).toHaveLength(7);
    for (const size of [1, 2, 3, 5, 8, 13, stream.length])
      expect(events(stream, size), `pieces of ${size}`).toEqual(expected);
  });

  it("waits for the rest of a blank line split across pieces", () => {
    expect(findEventEnd("data: a\n", 0)).toBeNull();
    expect(findEventEnd("data: a\n\r", 0)).toBeNull();
    expect(findEventEnd("data: a\r\n\r\n", 0)).toEqual({ at: 7, next: 11 });
    expect(eventData("data: x")).toBe("x");
    expect(eventData("data:x")).toBe("x");
  });
});
