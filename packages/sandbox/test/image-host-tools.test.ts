// The sandbox's own machinery on images that lack it: the tool jail's bwrap and prlimit come from
// the host with the host's loader and libraries, so an image without them (or without what they
// link) still gets jailed tools and the process limit; one without bash gets the host's as the
// agent's shell; an image without a shell is refused before anything starts, saying so.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImageCache } from "../src/index";
import { createTestRuntime } from "./support/sandbox-fixture";
import { buildTestImages, type TestImages } from "./support/test-images";

describe("bubblewrap on images that lack the sandbox's tools", () => {
  const scratch = mkdtempSync(join(tmpdir(), "raas-image-host-tools-"));
  // Sandboxes may run as another uid: a rootfs directory is used in place, so it must be reachable.
  chmodSync(scratch, 0o755);
  const fixture = createTestRuntime({
    imageCache: new ImageCache({ dir: join(scratch, "cache") }),
    defaultLimits: { maxProcesses: 200 },
  });
  let images: TestImages;

  beforeAll(async () => {
    images = await buildTestImages();
  }, 600_000);
  afterAll(async () => {
    await fixture.dispose();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("jails the tools and limits processes on an image with no bwrap, no prlimit and no libcap", async () => {
    // The test image, hard-linked, less prlimit and the libcap the host's bwrap links.
    const rootfs = join(scratch, "no-libcap");
    execFileSync("cp", ["-al", images.rootfsDir, rootfs]);
    for (const path of ["usr/bin/prlimit", "usr/lib/x86_64-linux-gnu/libcap.so.2", "usr/bin/bwrap"])
      rmSync(join(rootfs, path), { force: true });
    const sandbox = await fixture.runtime.create({ image: rootfs });
    try {
      expect(sandbox.isolation).toMatchObject({ toolJail: true });
      const bash = await sandbox.runTool("bash", {
        command:
          "ulimit -u; test -e /usr/bin/prlimit || echo no-prlimit; python3 -c 'import sys; print(sys.version_info[:2])'",
      });
      expect(bash).toMatchObject({ exitCode: 0, isError: false });
      expect(bash.output).toBe("200\nno-prlimit\n(3, 13)\n");
      // In the jail: the execution server's pid namespace is out of sight.
      const seen = await sandbox.runTool("bash", {
        command: "grep -l 'exec-serve[r]' /proc/[0-9]*/cmdline 2>/dev/null | wc -l",
      });
      expect(seen.output).toBe("0\n");
      const python = await sandbox.runTool("python", { code: "import os\nos.getcwd()" });
      expect(python.output).toBe("'/workspace'\n");
      await sandbox.runTool("editor", { command: "create", path: "note.txt", file_text: "kept\n" });
      expect((await sandbox.runTool("bash", { command: "cat note.txt" })).output).toBe("kept\n");
    } finally {
      await sandbox.close();
    }
  }, 120_000);

  it("says python3 is missing for the python tool; the host's bash stands in beside /bin/sh", async () => {
    const noPython = join(scratch, "no-python");
    execFileSync("cp", ["-al", images.rootfsDir, noPython]);
    for (const name of ["python3", "python3.13"]) rmSync(join(noPython, "usr/bin", name), { force: true });
    const sandbox = await fixture.runtime.create({ image: noPython });
    try {
      expect((await sandbox.runTool("bash", { command: "echo shell works" })).output).toBe("shell works\n");
      const python = await sandbox.runTool("python", { code: "1 + 1" });
      expect(python.isError).toBe(true);
      expect(python.output).toContain(
        "python3 is not installed in this sandbox's image (command not found), so the python tool cannot run here",
      );
    } finally {
      await sandbox.close();
    }
    const noBash = join(scratch, "no-bash");
    execFileSync("cp", ["-al", images.rootfsDir, noBash]);
    rmSync(join(noBash, "usr/bin/bash"));
    const withoutBash = await fixture.runtime.create({ image: noBash });
    try {
      const bash = await withoutBash.runTool("bash", {
        command:
          "test -e /usr/bin/bash || echo no-bash-in-image; echo $BASH_VERSION $((6*7)); readlink /bin/sh",
      });
      expect(bash).toMatchObject({ exitCode: 0, isError: false });
      expect(bash.output).toMatch(/^no-bash-in-image\n\d+\.\S+ 42\ndash\n$/);
    } finally {
      await withoutBash.close();
    }
  }, 120_000);

  it("refuses an OCI image without a shell, saying the image has none and what the server needs", async () => {
    // A one-file OCI image, packed with umoci as an image builder would.
    const dir = join(scratch, "shell-less");
    mkdirSync(join(dir, "rootfs", "etc"), { recursive: true });
    writeFileSync(join(dir, "rootfs", "etc", "hostname"), "tiny\n");
    for (const args of [
      ["init", "--layout", "oci"],
      ["new", "--image", "oci:tiny"],
      ["insert", "--rootless", "--image", "oci:tiny", "rootfs", "/"],
    ])
      execFileSync("umoci", args, { cwd: dir });
    const reference = `${join(dir, "oci")}:tiny`;
    const error = await fixture.runtime.create({ image: reference }).then(
      () => new Error("a sandbox started on an image without a shell"),
      (caught: unknown) => caught as Error,
    );
    expect(error.message).toContain(
      `image ${reference} cannot run the sandbox's tools: it lacks a shell at /bin/bash`,
    );
    expect(error.message).toContain("an image without a shell cannot run the sandbox's tools");
    // Neither prlimit nor what node loads is asked of it: the host's run there.
    expect(error.message).not.toContain("prlimit");
    expect(error.message).not.toContain("loads");
  }, 120_000);
});
