import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildSweData } from "../../data/swe/build-swe-data";
import { SWE_DATA_DIR } from "./support/swe-test-fixture";

describe("the shipped SWE dataset", () => {
  const outDir = mkdtempSync(join(tmpdir(), "raas-swe-rebuild-"));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it("rebuilds byte for byte from its sources (fixed commit dates, real base_commit hashes)", () => {
    buildSweData(outDir);
    for (const file of ["instances.jsonl", "edge-instances.jsonl"]) {
      expect(readFileSync(join(outDir, file), "utf8"), file).toBe(
        readFileSync(join(SWE_DATA_DIR, file), "utf8"),
      );
    }
    const bundles = readdirSync(join(SWE_DATA_DIR, "bundles")).sort();
    expect(readdirSync(join(outDir, "bundles")).sort()).toEqual(bundles);
    for (const bundle of bundles) {
      expect(
        readFileSync(join(outDir, "bundles", bundle)).equals(
          readFileSync(join(SWE_DATA_DIR, "bundles", bundle)),
        ),
        bundle,
      ).toBe(true);
    }
  });
});
