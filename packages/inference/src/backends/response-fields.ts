import { inferenceFailure } from "../inference-failure";

/** Reads fields of an untrusted response body; every miss names the full field path. */
export class ResponseReader {
  constructor(
    private readonly source: string,
    private readonly backendId: string | null,
  ) {}

  fail(path: string, problem: string): never {
    throw inferenceFailure("bad-response", `${this.source} response: ${path} ${problem}`, {
      backendId: this.backendId,
    });
  }

  object(value: unknown, path: string): Record<string, unknown> {
    if (typeof value !== "object" || value === null || Array.isArray(value))
      this.fail(path, "is missing or not an object");
    return value as Record<string, unknown>;
  }

  array(value: unknown, path: string): unknown[] {
    if (!Array.isArray(value)) this.fail(path, "is missing or not an array");
    return value;
  }

  tokenIds(value: unknown, path: string): number[] {
    const items = this.array(value, path);
    items.forEach((item, i) => {
      if (!Number.isInteger(item) || (item as number) < 0) this.fail(`${path}[${i}]`, "is not a token id");
    });
    return items as number[];
  }

  numbers(value: unknown, path: string): number[] {
    const items = this.array(value, path);
    items.forEach((item, i) => {
      if (typeof item !== "number") this.fail(`${path}[${i}]`, "is not a number");
    });
    return items as number[];
  }

  optionalCount(value: unknown, path: string): number | null {
    if (value === undefined || value === null) return null;
    if (!Number.isInteger(value) || (value as number) < 0) this.fail(path, "is not a non-negative integer");
    return value as number;
  }
}
