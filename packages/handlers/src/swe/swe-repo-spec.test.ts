import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseSweInstance } from "./swe-instance.schema";
import { resolveSweSpec } from "./swe-repo-spec";
import { loadSweRepoSpecs, parseSweRepoSpecs } from "./swe-repo-spec.schema";

const RAW = {
  instance_id: "acme__widgets-12",
  repo: "acme/widgets",
  base_commit: "a".repeat(40),
  problem_statement: "x",
  version: "2.1",
};
const specs = parseSweRepoSpecs({
  "acme/widgets": { testCommand: "pytest -rA", env: { A: "repo" } },
  "acme/widgets@2.1": {
    testCommand: "pytest -rA -p no:x",
    setupCommands: ["make"],
    env: { PYTHONPATH: "src" },
  },
});

describe("SWE repo specs", () => {
  it("picks the versioned spec over the repository's, the job's fields over both, test_cmd over all", () => {
    const instance = parseSweInstance(RAW);
    expect(resolveSweSpec(instance, specs)).toEqual(specs["acme/widgets@2.1"]);
    expect(resolveSweSpec(parseSweInstance({ ...RAW, version: "1.0" }), specs).env).toEqual({ A: "repo" });
    expect(resolveSweSpec(instance, specs, { testDirectives: [] })).toMatchObject({
      testCommand: "pytest -rA -p no:x",
      testDirectives: [],
    });
    const withCmd = parseSweInstance({ ...RAW, test_cmd: "tox -e py -- " });
    expect(resolveSweSpec(withCmd, specs, { testCommand: "nope" }).testCommand).toBe("tox -e py --");
    const listCmd = parseSweInstance({ ...RAW, test_cmd: ["source env.sh", "pytest -rA"] });
    expect(resolveSweSpec(listCmd).testCommand).toBe("source env.sh && pytest -rA");
  });

  it("loads a specs file and names the key and field of a mistake", async () => {
    const dir = mkdtempSync(join(tmpdir(), "raas-specs-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const good = join(dir, "good.json");
    writeFileSync(good, JSON.stringify({ "acme/widgets@2.1": { env: { PYTHONPATH: "src" } } }));
    expect(await loadSweRepoSpecs(good)).toEqual({ "acme/widgets@2.1": { env: { PYTHONPATH: "src" } } });
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ "acme/widgets": { setupCommand: ["x"] } }));
    await expect(loadSweRepoSpecs(bad)).rejects.toThrow(/bad\.json: acme\/widgets: .*setupCommand/);
    expect(() => parseSweRepoSpecs({ widgets: {} })).toThrow(/owner\/name/);
    // Images resolve on the sandbox hosts; a relative path would depend on their working directory.
    expect(() => parseSweRepoSpecs({ "acme/widgets": { image: "images/widgets.sif" } })).toThrow(
      /acme\/widgets\.image: expected an absolute path/,
    );
    await expect(loadSweRepoSpecs(join(dir, "missing.json"))).rejects.toThrow(/not a readable JSON file/);
  });
});
