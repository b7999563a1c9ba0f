import { describe, expect, it } from "vitest";
import { JsonLineDecoder } from "./json-lines";

function collect(options?: { maxLineChars?: number }) {
  const values: unknown[] = [];
  const errors: string[] = [];
  const decoder = new JsonLineDecoder(
    (value) => values.push(value),
    (error) => errors.push(error.message),
    options,
  );
  return { decoder, values, errors };
}

describe("JsonLineDecoder", () => {
  it("decodes values split across chunks, several per chunk, and skips blank lines", () => {
    const { decoder, values, errors } = collect();
    for (const chunk of ['{"a":', "1}\n\n", '{"b":2}\n{"c"', ":3}\n"]) decoder.push(chunk);
    expect(values).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
    expect(errors).toEqual([]);
  });

  it("reports a malformed line and goes on with the next", () => {
    const { decoder, values, errors } = collect();
    decoder.push('{oops}\n{"ok":true}\n');
    expect(values).toEqual([{ ok: true }]);
    expect(errors).toHaveLength(1);
  });

  it("discards an oversized line up to its newline, reports it once, and keeps decoding", () => {
    const { decoder, values, errors } = collect({ maxLineChars: 16 });
    decoder.push('{"x":"');
    for (let i = 0; i < 10; i += 1) decoder.push("a".repeat(10));
    decoder.push('"}\n{"after":1}\n');
    expect(errors).toEqual(["a protocol line is longer than 16 characters; the line was discarded"]);
    expect(values).toEqual([{ after: 1 }]);
  });

  it("accepts a line of exactly the cap", () => {
    const { decoder, values } = collect({ maxLineChars: 9 });
    decoder.push('{"k":123}\n');
    expect(values).toEqual([{ k: 123 }]);
  });

  it("decodes a line of many small chunks without rescanning what it already saw", () => {
    // Counts the characters indexOf is asked to scan: linear in the input, not quadratic.
    const { decoder, values } = collect();
    const payload = "b".repeat(200_000);
    const original = String.prototype.indexOf;
    let scanned = 0;
    String.prototype.indexOf = function (this: string, search: string, position?: number) {
      if (search === "\n") scanned += this.length - (position ?? 0);
      return original.call(this, search, position);
    };
    try {
      decoder.push('{"p":"');
      for (let at = 0; at < payload.length; at += 100) decoder.push(payload.slice(at, at + 100));
      decoder.push('"}\n');
    } finally {
      String.prototype.indexOf = original;
    }
    expect(values).toEqual([{ p: payload }]);
    expect(scanned).toBeLessThan(payload.length * 2);
  });
});
