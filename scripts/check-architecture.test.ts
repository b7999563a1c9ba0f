import { describe, expect, it } from "vitest";
import { findArchitectureProblems, MAX_WORDS, proseWords } from "./check-architecture.mjs";

const workspaces = [
  { path: "packages/shared", layer: 0 },
  { path: "packages/training", layer: 1.5 },
  { path: "apps/cli", layer: 4 },
];
const table = [
  "| package | layer | what |",
  "| `packages/shared` | 0 | schemas |",
  "| `packages/training` | 1.5 | steps |",
  "| `apps/cli` | 4 | the CLI |",
];
const files = new Set([...workspaces.map((w) => w.path), "packages/shared/src/a.test.ts"]);
const check = (lines: string[]) =>
  findArchitectureProblems(lines.join("\n"), workspaces, (p: string) => files.has(p));

describe("check-architecture", () => {
  it("accepts a table with every workspace at its layer and existing cited paths", () => {
    expect(check([...table, "Tests: `packages/shared/src/a.test.ts`."])).toEqual([]);
  });

  it("reports a workspace missing from the table", () => {
    expect(check(table.filter((l) => !l.includes("apps/cli")))).toEqual([
      "apps/cli is missing from the package table",
    ]);
  });

  it("reports a workspace at another layer than check-deps' layers", () => {
    const moved = table.map((l) => l.replace("| 1.5 |", "| 2 |"));
    expect(check(moved)).toEqual(["packages/training is listed at layer 2; scripts/layers.mjs says 1.5"]);
  });

  it("reports a row that is no workspace and a cited test that does not exist", () => {
    const extra = [...table, "| `packages/gone` | 2 | old |", "Tests: `packages/shared/src/b.test.ts`."];
    expect(check(extra)).toEqual([
      "packages/gone is in the package table but is no workspace",
      "packages/gone is cited but does not exist",
      "packages/shared/src/b.test.ts is cited but does not exist",
    ]);
  });

  it("counts words outside fenced blocks and reports a document over the limit", () => {
    expect(proseWords("one two\n```mermaid\nnot counted here\n```\n| three | four |")).toBe(4);
    const long = [...table, Array.from({ length: MAX_WORDS }, () => "word").join(" ")];
    expect(check(long)).toEqual([
      `${proseWords(long.join("\n"))} words outside fenced blocks, over ${MAX_WORDS}: move detail to a README`,
    ]);
  });
});
