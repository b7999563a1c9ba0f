import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSandboxRuntime } from "./create-sandbox-runtime";

describe("createSandboxRuntime", () => {
  const root = mkdtempSync(join(tmpdir(), "raas-pick-"));
  const baseDir = join(root, "base");
  const bin = (dir: string, names: string[]) => {
    mkdirSync(join(root, dir), { recursive: true });
    for (const name of names) {
      writeFileSync(join(root, dir, name), "#!/bin/sh\n");
      chmodSync(join(root, dir, name), 0o755);
    }
    return join(root, dir);
  };
  const warn = () => {};
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("prefers apptainer/singularity when installed, else bubblewrap, and never picks local by itself", () => {
    const both = bin("both", ["apptainer", "bwrap"]);
    const onlySingularity = bin("sing", ["singularity"]);
    const onlyBwrap = bin("bw", ["bwrap"]);
    const none = bin("none", []);
    expect(createSandboxRuntime({ searchPath: both, baseDir, warn }).name).toBe("apptainer");
    expect(createSandboxRuntime({ searchPath: onlySingularity, baseDir, warn }).name).toBe("apptainer");
    expect(createSandboxRuntime({ searchPath: `${none}:${onlyBwrap}`, baseDir, warn }).name).toBe(
      "bubblewrap",
    );
    expect(() => createSandboxRuntime({ searchPath: none, baseDir, warn })).toThrow(
      /apt-get install -y bubblewrap/,
    );
    expect(createSandboxRuntime({ kind: "bubblewrap", searchPath: both, baseDir, warn }).name).toBe(
      "bubblewrap",
    );
    expect(createSandboxRuntime({ kind: "local", searchPath: none, baseDir, warn }).name).toBe("local");
  });
});
