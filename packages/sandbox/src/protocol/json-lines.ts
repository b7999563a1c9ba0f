/**
 * Splits a byte stream into newline-terminated JSON values. Used on both ends of the
 * socket. A malformed line is reported to `onError` and skipped rather than tearing the
 * connection down, so one bad frame cannot wedge a sandbox.
 */
export class JsonLineDecoder {
  #buffer = "";
  readonly #onValue: (value: unknown) => void;
  readonly #onError: (error: Error) => void;

  constructor(onValue: (value: unknown) => void, onError: (error: Error) => void = () => {}) {
    this.#onValue = onValue;
    this.#onError = onError;
  }

  push(chunk: string): void {
    this.#buffer += chunk;
    let newline = this.#buffer.indexOf("\n");
    while (newline >= 0) {
      const line = this.#buffer.slice(0, newline);
      this.#buffer = this.#buffer.slice(newline + 1);
      if (line.trim().length > 0) {
        try {
          this.#onValue(JSON.parse(line));
        } catch (error) {
          this.#onError(error instanceof Error ? error : new Error(String(error)));
        }
      }
      newline = this.#buffer.indexOf("\n");
    }
  }
}

export function encodeJsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}
