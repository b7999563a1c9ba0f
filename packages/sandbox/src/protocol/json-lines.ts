export interface JsonLineDecoderOptions {
  /**
   * Longest line accepted, in UTF-16 code units (one per character of ASCII JSON). A longer
   * line is reported to `onError` once and the rest of it, up to its newline, is discarded.
   * Default unbounded.
   */
  maxLineChars?: number;
}

/** The server side's line cap: 256 Mi characters. */
export const SERVER_MAX_LINE_CHARS = 256 * 1024 ** 2;

/**
 * Splits a byte stream into newline-terminated JSON values. Used on both ends of the
 * socket. A malformed or oversized line is reported to `onError` and skipped rather than
 * tearing the connection down, so one bad frame cannot wedge a sandbox. Only the bytes of each
 * new chunk are scanned for the newline, so a large line costs linear time.
 */
export class JsonLineDecoder {
  /** Pieces of the current (unterminated) line. */
  #pieces: string[] = [];
  #pendingChars = 0;
  /** The current line passed the cap: drop everything up to its newline. */
  #isDiscarding = false;
  readonly #onValue: (value: unknown) => void;
  readonly #onError: (error: Error) => void;
  readonly #maxLineChars: number;

  constructor(
    onValue: (value: unknown) => void,
    onError: (error: Error) => void = () => {},
    options: JsonLineDecoderOptions = {},
  ) {
    this.#onValue = onValue;
    this.#onError = onError;
    this.#maxLineChars = options.maxLineChars ?? Number.POSITIVE_INFINITY;
  }

  push(chunk: string): void {
    let from = 0;
    for (let newline = chunk.indexOf("\n"); newline >= 0; newline = chunk.indexOf("\n", from)) {
      this.#append(chunk.slice(from, newline));
      const line = this.#isDiscarding ? undefined : this.#pieces.join("");
      this.#pieces = [];
      this.#pendingChars = 0;
      this.#isDiscarding = false;
      from = newline + 1;
      if (line !== undefined) this.#emit(line);
    }
    this.#append(chunk.slice(from));
  }

  #append(piece: string): void {
    if (this.#isDiscarding || piece.length === 0) return;
    if (this.#pendingChars + piece.length > this.#maxLineChars) {
      this.#pieces = [];
      this.#pendingChars = 0;
      this.#isDiscarding = true;
      this.#onError(
        new Error(`a protocol line is longer than ${this.#maxLineChars} characters; the line was discarded`),
      );
      return;
    }
    this.#pieces.push(piece);
    this.#pendingChars += piece.length;
  }

  #emit(line: string): void {
    if (line.trim().length === 0) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.#onError(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.#onValue(value);
  }
}

export function encodeJsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}
