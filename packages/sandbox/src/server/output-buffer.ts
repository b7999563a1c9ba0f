/**
 * Collects tool output up to a byte budget. Beyond the budget it keeps the first half and
 * the most recent half (errors usually sit at the end) and remembers how many bytes fell
 * out in between, so memory stays bounded however much a command prints.
 */
export class OutputBuffer {
  readonly #headLimit: number;
  readonly #tailLimit: number;
  #head: Buffer[] = [];
  #headBytes = 0;
  #tail: Buffer[] = [];
  #tailBytes = 0;
  #totalBytes = 0;

  /** @param maxBytes budget of returned output in bytes (≥ 2). */
  constructor(readonly maxBytes: number) {
    this.#headLimit = Math.floor(maxBytes / 2);
    this.#tailLimit = maxBytes - this.#headLimit;
  }

  get totalBytes(): number {
    return this.#totalBytes;
  }

  get isTruncated(): boolean {
    return this.#totalBytes > this.maxBytes;
  }

  append(text: string): void {
    if (text.length === 0) return;
    let bytes = Buffer.from(text, "utf8");
    this.#totalBytes += bytes.length;
    if (this.#headBytes < this.#headLimit) {
      const room = this.#headLimit - this.#headBytes;
      const taken = bytes.subarray(0, room);
      this.#head.push(taken);
      this.#headBytes += taken.length;
      bytes = bytes.subarray(taken.length);
      if (bytes.length === 0) return;
    }
    this.#tail.push(bytes);
    this.#tailBytes += bytes.length;
    while (this.#tailBytes > this.#tailLimit && this.#tail.length > 0) {
      const first = this.#tail[0]!;
      const excess = this.#tailBytes - this.#tailLimit;
      if (first.length <= excess) {
        this.#tail.shift();
        this.#tailBytes -= first.length;
      } else {
        this.#tail[0] = first.subarray(excess);
        this.#tailBytes -= excess;
      }
    }
  }

  /** The kept output; when bytes were cut, a note in the middle says how many. */
  text(): string {
    const head = Buffer.concat(this.#head).toString("utf8");
    const tail = Buffer.concat(this.#tail).toString("utf8");
    if (!this.isTruncated) return head + tail;
    const cut = this.#totalBytes - this.#headBytes - this.#tailBytes;
    return `${head}\n[... output truncated: ${cut} of ${this.#totalBytes} bytes cut (limit ${this.maxBytes} bytes) ...]\n${tail}`;
  }
}
