import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImageCache, type ManagedSandbox } from "../src/index";
import { createTestRuntime } from "./support/sandbox-fixture";
import { buildTestImages, type TestImages } from "./support/test-images";

/** Runs `script` with bash in the sandbox; fails the test on a non-zero exit. */
async function sh(sandbox: ManagedSandbox, script: string): Promise<string> {
  const result = await sandbox.exec(["bash", "-c", script], { timeoutMs: 30_000 });
  if (result.exitCode !== 0) throw new Error(`\`${script}\` exited ${result.exitCode}: ${result.stderr}`);
  return result.stdout;
}

describe("bubblewrap sandboxes on images", () => {
  let images: TestImages;
  const cacheDir = mkdtempSync(join(tmpdir(), "raas-image-cache-test-"));
  const cache = new ImageCache({ dir: cacheDir });
  const fixture = createTestRuntime({ imageCache: cache });

  beforeAll(async () => {
    images = await buildTestImages();
  }, 600_000);
  afterAll(async () => {
    await fixture.dispose();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it("runs the image's Python 3.13 from an OCI archive, an OCI layout and a SIF; the host's 3.11 without one", async () => {
    const versions: Record<string, string> = {};
    for (const [name, image] of [
      ["host", undefined],
      ["oci-archive", images.ociArchive],
      ["oci-layout", images.ociLayout],
      ["sif", images.sif],
    ] as const) {
      const sandbox = await fixture.runtime.create(image === undefined ? {} : { image });
      try {
        versions[name] = (await sh(sandbox, "python3 --version")).trim();
        // The agent's tools run there too: bash, python and the editor.
        const tool = await sandbox.runTool("bash", {
          command: "python3 -c 'import sys; print(sys.version_info[:2])'",
        });
        expect(tool).toMatchObject({ exitCode: 0, isError: false });
        expect(tool.output).toBe(image === undefined ? "(3, 11)\n" : "(3, 13)\n");
        const python = await sandbox.runTool("python", { code: "import sys\nsys.version_info.minor" });
        expect(python.output).toBe(image === undefined ? "11\n" : "13\n");
        await sandbox.runTool("editor", { command: "create", path: "hello.py", file_text: "print('hi')\n" });
        expect((await sandbox.runTool("bash", { command: "python3 hello.py" })).output).toBe("hi\n");
      } finally {
        await sandbox.close();
      }
    }
    expect(versions).toEqual({
      host: expect.stringMatching(/^Python 3\.11\./),
      "oci-archive": expect.stringMatching(/^Python 3\.13\./),
      "oci-layout": expect.stringMatching(/^Python 3\.13\./),
      sif: expect.stringMatching(/^Python 3\.13\./),
    });
    // The archive and the layout are one image (one manifest digest): one entry for both.
    expect(readdirSync(join(cacheDir, "entries")).sort()).toEqual([
      expect.stringMatching(/^oci-[0-9a-f]{64}$/),
      expect.stringMatching(/^sif-[0-9a-f]{64}$/),
    ]);
  });

  it("runs a docker save archive's image too", async () => {
    const sandbox = await fixture.runtime.create({ image: images.dockerArchive });
    try {
      expect(await sh(sandbox, "python3 --version")).toMatch(/^Python 3\.13\./);
    } finally {
      await sandbox.close();
    }
    expect(readdirSync(join(cacheDir, "entries")).filter((key) => key.startsWith("docker-"))).toHaveLength(1);
  }, 180_000);

  it("keeps each sandbox's writes to its own workspace: neither the cached image nor another sandbox sees them", async () => {
    const [first, second] = await Promise.all([
      fixture.runtime.create({ image: images.sif }),
      fixture.runtime.create({ image: images.sif }),
    ]);
    try {
      const attempt = await sh(
        first!,
        "echo mine > /workspace/note; for p in /usr/bin/planted /etc/planted /var/planted /planted; do (echo x > $p) 2>/dev/null && echo wrote $p; done; echo done",
      );
      expect(attempt).toBe("done\n");
      expect(await sh(first!, "cat /workspace/note")).toBe("mine\n");
      expect(await sh(second!, "ls -A /workspace; test -e /usr/bin/planted || echo clean")).toBe("clean\n");
      const rootfs = join(
        cacheDir,
        "entries",
        readdirSync(join(cacheDir, "entries")).find((key) => key.startsWith("sif-"))!,
        "rootfs",
      );
      for (const path of ["usr/bin/planted", "etc/planted", "var/planted", "planted", "workspace/note"]) {
        expect(existsSync(join(rootfs, path)), path).toBe(false);
      }
      // Each open sandbox holds a lease on the entry; closing gives both back.
      const sifKey = readdirSync(join(cacheDir, "entries")).find((key) => key.startsWith("sif-"))!;
      expect(readdirSync(join(cacheDir, "refs", sifKey))).toHaveLength(2);
      await Promise.all([first!.close(), second!.close()]);
      expect(readdirSync(join(cacheDir, "refs", sifKey))).toEqual([]);
    } finally {
      await Promise.all([first?.close(), second?.close()]);
    }
  });

  it("refuses an image without a shell with a sentence naming what is missing", async () => {
    const bare = mkdtempSync(join(tmpdir(), "raas-bare-rootfs-"));
    mkdirSync(join(bare, "usr/bin"), { recursive: true });
    mkdirSync(join(bare, "etc"));
    try {
      await expect(fixture.runtime.create({ image: bare })).rejects.toThrow(
        /image .* cannot run the sandbox's tools: it lacks a shell at \/bin\/bash .*an image without a shell/,
      );
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it("refuses a file that is no image with a readable sentence", async () => {
    const bogus = join(cacheDir, "not-an-image.txt");
    await import("node:fs/promises").then((fs) => fs.writeFile(bogus, "hello"));
    await expect(fixture.runtime.create({ image: bogus })).rejects.toThrow(
      /is neither a directory, an OCI or docker archive, nor a SIF file/,
    );
    await expect(fixture.runtime.create({ image: "/nonexistent/image.sif" })).rejects.toThrow(
      /does not exist/,
    );
  });
});
