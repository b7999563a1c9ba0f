/** The status line and headers of an HTTP/1.x response (header names in lower case). */
export interface Http1ResponseHead {
  status: number;
  headers: Record<string, string>;
}

/** What the parser hands over as a response arrives. */
export interface Http1ResponseSink {
  onHead(head: Http1ResponseHead): void;
  /** Body bytes, de-chunked; the buffer is only valid during the call. */
  onBody(bytes: Buffer): void;
}

/** A response that breaks HTTP/1.1 framing (code `HPE_INVALID`, as node's parser names its errors). */
export class Http1ProtocolError extends Error {
  readonly code = "HPE_INVALID";
}

const CRLF = Buffer.from("\r\n");
const HEAD_END = Buffer.from("\r\n\r\n");
/** Longest status line plus headers accepted, in bytes (node's default is 16 KiB). */
const MAX_HEAD_BYTES = 64 * 1024;
/** Longest chunk-size line (with extensions) or trailer line accepted, in bytes. */
const MAX_LINE_BYTES = 8 * 1024;

type State =
  | { kind: "head" }
  | { kind: "length"; remaining: number }
  | { kind: "chunk-size" }
  | { kind: "chunk-data"; remaining: number }
  | { kind: "chunk-end" }
  | { kind: "trailers" }
  | { kind: "until-close" }
  | { kind: "done" };

/**
 * An incremental parser of one HTTP/1.1 response to a POST or GET, fed the connection's bytes in
 * pieces of any size: the head (1xx interim responses skipped), then the body by its framing —
 * `Transfer-Encoding: chunked` (extensions and trailers read and dropped), `Content-Length`, or
 * until the server closes. Says when the response is complete and whether the connection may carry
 * the next request (HTTP/1.1 without `Connection: close`, framed, nothing sent past the end).
 */
export class Http1ResponseParser {
  private state: State = { kind: "head" };
  private pending: Buffer | null = null;
  private keepAlive = false;
  private hasTrailingBytes = false;
  /** Bytes of the response received so far (zero: the server answered nothing). */
  receivedBytes = 0;

  constructor(private readonly sink: Http1ResponseSink) {}

  get isComplete(): boolean {
    return this.state.kind === "done";
  }

  /** True once complete when the connection can be reused for another request. */
  get isReusable(): boolean {
    return this.isComplete && this.keepAlive && !this.hasTrailingBytes;
  }

  /** Feeds bytes as they arrive; throws `Http1ProtocolError` on a malformed response. */
  push(bytes: Buffer): void {
    this.receivedBytes += bytes.length;
    let data = this.pending === null ? bytes : Buffer.concat([this.pending, bytes]);
    this.pending = null;
    while (data.length > 0) {
      const used = this.step(data);
      if (used === null) {
        this.pending = Buffer.from(data);
        return;
      }
      data = data.subarray(used);
      if (this.state.kind === "done" && data.length > 0) {
        // Nothing may follow a response that was not asked for: never reuse such a connection.
        this.hasTrailingBytes = true;
        return;
      }
    }
  }

  /** The server closed its end: completes a body read until close, else the response was cut. */
  end(): void {
    if (this.state.kind === "until-close") this.state = { kind: "done" };
  }

  /** Consumes a prefix of `data`: how many bytes, or null when more must arrive first. */
  private step(data: Buffer): number | null {
    const { state } = this;
    switch (state.kind) {
      case "head":
        return this.readHead(data);
      case "length":
        return this.takeBody(data, state, { kind: "done" });
      case "chunk-size": {
        const at = lineEnd(data);
        if (at === -1) return null;
        const line = data.toString("latin1", 0, at);
        const sizeText = line.split(";", 1)[0]?.trim() ?? "";
        if (!/^[0-9a-fA-F]{1,12}$/.test(sizeText)) throw new Http1ProtocolError(`bad chunk size '${line}'`);
        const size = Number.parseInt(sizeText, 16);
        this.state = size === 0 ? { kind: "trailers" } : { kind: "chunk-data", remaining: size };
        return at + 2;
      }
      case "chunk-data":
        return this.takeBody(data, state, { kind: "chunk-end" });
      case "chunk-end": {
        if (data.length < 2) return null;
        if (data[0] !== 13 || data[1] !== 10) throw new Http1ProtocolError("a chunk does not end with CRLF");
        this.state = { kind: "chunk-size" };
        return 2;
      }
      case "trailers": {
        const at = lineEnd(data);
        if (at === -1) return null;
        if (at === 0) this.state = { kind: "done" };
        return at + 2;
      }
      case "until-close":
        this.sink.onBody(data);
        return data.length;
      case "done":
        return data.length;
    }
  }

  /** Hands over up to `state.remaining` body bytes; at the last of them the parser moves to `next`. */
  private takeBody(data: Buffer, state: { remaining: number }, next: State): number {
    const taken = Math.min(state.remaining, data.length);
    this.sink.onBody(data.subarray(0, taken));
    state.remaining -= taken;
    if (state.remaining === 0) this.state = next;
    return taken;
  }

  private readHead(data: Buffer): number | null {
    const at = data.indexOf(HEAD_END);
    if (at === -1) {
      if (data.length > MAX_HEAD_BYTES) throw new Http1ProtocolError("the response head is too long");
      return null;
    }
    const lines = data.toString("latin1", 0, at).split("\r\n");
    const match = /^HTTP\/1\.([01]) (\d{3})(?: .*)?$/.exec(lines[0] ?? "");
    if (!match) throw new Http1ProtocolError(`bad status line '${(lines[0] ?? "").slice(0, 100)}'`);
    const status = Number(match[2]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      if (colon <= 0) throw new Http1ProtocolError(`bad header line '${line.slice(0, 100)}'`);
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    // An interim answer (100 Continue, 103 Early Hints): the real one follows.
    if (status >= 100 && status < 200 && status !== 101) return at + 4;
    const connection = (headers.connection ?? "").toLowerCase();
    this.keepAlive = match[1] === "1" ? !connection.includes("close") : connection.includes("keep-alive");
    this.sink.onHead({ status, headers });
    if (status === 204 || status === 304) this.state = { kind: "done" };
    else if ((headers["transfer-encoding"] ?? "").toLowerCase().includes("chunked")) {
      this.state = { kind: "chunk-size" };
    } else if (headers["content-length"] !== undefined) {
      const length = headers["content-length"];
      if (!/^\d{1,15}$/.test(length)) throw new Http1ProtocolError(`bad content-length '${length}'`);
      const remaining = Number(length);
      this.state = remaining === 0 ? { kind: "done" } : { kind: "length", remaining };
    } else {
      this.keepAlive = false;
      this.state = { kind: "until-close" };
    }
    return at + 4;
  }
}

/** Where the first CRLF in `data` starts, -1 when none yet (a line too long is an error). */
function lineEnd(data: Buffer): number {
  const at = data.indexOf(CRLF);
  if (at === -1 && data.length > MAX_LINE_BYTES) throw new Http1ProtocolError("a chunk line is too long");
  return at;
}
