import { describe, expect, it } from "vitest";
import { Http1ProtocolError, type Http1ResponseHead, Http1ResponseParser } from "./http1-response-parser";

/** Feeds `wire` in pieces of `size` bytes; what the parser handed over and its final state. */
function parse(wire: string | Buffer, size: number, closeAfter = false) {
  const bytes = typeof wire === "string" ? Buffer.from(wire, "utf8") : wire;
  const heads: Http1ResponseHead[] = [];
  const body: Buffer[] = [];
  const parser = new Http1ResponseParser({
    onHead: (head) => heads.push(head),
    onBody: (piece) => body.push(Buffer.from(piece)),
  });
  for (let at = 0; at < bytes.length; at += size) parser.push(bytes.subarray(at, at + size));
  if (closeAfter) parser.end();
  return {
    heads,
    body: Buffer.concat(body).toString("utf8"),
    isComplete: parser.isComplete,
    isReusable: parser.isReusable,
  };
}

const SIZES = [1, 2, 3, 5, 7, 16, 10_000];

describe("Http1ResponseParser", () => {
  it("reads a chunked event stream however its bytes arrive, and keeps the connection", () => {
    const events = ['data: {"a":1}\n\n', "data: é€😀\n\n", "data: [DONE]\n\n"];
    const wire =
      "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n" +
      events.map((event) => `${Buffer.byteLength(event).toString(16)}\r\n${event}\r\n`).join("") +
      "0\r\n\r\n";
    for (const size of SIZES) {
      const read = parse(wire, size);
      expect(read.heads, `pieces of ${size}`).toEqual([
        { status: 200, headers: { "content-type": "text/event-stream", "transfer-encoding": "chunked" } },
      ]);
      expect(read.body).toBe(events.join(""));
      expect(read.isComplete).toBe(true);
      expect(read.isReusable).toBe(true);
    }
  });

  it("is not complete until the last chunk and its trailers have arrived", () => {
    const start = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nabcd\r\n";
    expect(parse(start, 3).isComplete).toBe(false);
    expect(parse(`${start}0\r\n`, 3).isComplete).toBe(false);
    const withTrailer = parse(`${start}0\r\nX-Trailer: yes\r\n\r\n`, 3);
    expect(withTrailer.body).toBe("abcd");
    expect(withTrailer.isComplete).toBe(true);
  });

  it("reads a Content-Length body to its length, with multi-byte text split anywhere", () => {
    const text = '{"text":"héllo wörld ✓"}';
    const wire = `HTTP/1.1 400 Bad Request\r\ncontent-length: ${Buffer.byteLength(text)}\r\nContent-Type: application/json\r\n\r\n${text}`;
    for (const size of SIZES) {
      const read = parse(wire, size);
      expect(read.heads[0]?.status).toBe(400);
      expect(read.body).toBe(text);
      expect(read.isComplete && read.isReusable).toBe(true);
    }
    const cut = Buffer.from(wire).subarray(0, Buffer.byteLength(wire) - 2);
    expect(parse(cut, 4).isComplete).toBe(false);
  });

  it("reads a body without framing until the server closes, and never reuses that connection", () => {
    const wire = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{}";
    expect(parse(wire, 5).isComplete).toBe(false);
    const closed = parse(wire, 5, true);
    expect(closed.body).toBe("{}");
    expect(closed.isComplete).toBe(true);
    expect(closed.isReusable).toBe(false);
  });

  it("reuses a connection only when HTTP/1.1 keeps it and nothing follows the answer", () => {
    const ok = (headers: string, version = "1.1") =>
      parse(`HTTP/${version} 200 OK\r\nContent-Length: 2\r\n${headers}\r\n{}`, 3);
    expect(ok("").isReusable).toBe(true);
    expect(ok("Connection: close\r\n").isReusable).toBe(false);
    expect(ok("", "1.0").isReusable).toBe(false);
    expect(ok("Connection: keep-alive\r\n", "1.0").isReusable).toBe(true);
    const extra = parse("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}HTTP/1.1", 100);
    expect(extra.isComplete).toBe(true);
    expect(extra.isReusable).toBe(false);
    const empty = parse("HTTP/1.1 204 No Content\r\n\r\n", 2);
    expect(empty.isComplete && empty.isReusable).toBe(true);
  });

  it("skips interim answers and joins repeated headers", () => {
    const read = parse(
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nX-A: 1\r\nx-a: 2\r\nContent-Length: 0\r\n\r\n",
      4,
    );
    expect(read.heads).toEqual([{ status: 200, headers: { "x-a": "1, 2", "content-length": "0" } }]);
    expect(read.isComplete).toBe(true);
  });

  it("refuses what is not HTTP/1.1 framing", () => {
    expect(() => parse("SSH-2.0-OpenSSH\r\n\r\n", 100)).toThrow(Http1ProtocolError);
    expect(() => parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 100)).toThrow(
      /bad chunk size/,
    );
    expect(() => parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXY", 100)).toThrow(
      /CRLF/,
    );
    expect(() => parse("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", 100)).toThrow(/content-length/);
    expect(() => parse(`HTTP/1.1 200 OK\r\nX: ${"a".repeat(70_000)}`, 1_000)).toThrow(/too long/);
  });
});
