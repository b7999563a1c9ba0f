import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ApptainerRuntime, findExecutable } from "../src/index";
import { requireBubblewrap } from "./support/sandbox-fixture";

// The one suite allowed to skip: Apptainer/Singularity is not packaged for Debian 12, so it
// runs only where a cluster admin installed it and built the image (see singularity/).
const SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/opt/apptainer/bin";
const binary = findExecutable("apptainer", SEARCH_PATH) ?? findExecutable("singularity", SEARCH_PATH);
const image = process.env.RAAS_TEST_SIF;
const skipReason = !binary
  ? "apptainer/singularity is not installed on this machine (not in Debian 12's archive); command lines are unit-tested in src/runtimes/apptainer-command.test.ts"
  : !image
    ? "RAAS_TEST_SIF is not set to a .sif built from singularity/raas-base.def"
    : undefined;
if (skipReason) console.log(`[apptainer-runtime.test] skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("apptainer runtime (real binary)", () => {
  // Created inside the test: a skipped suite's body still runs at collection time.
  let baseDir = "";
  afterAll(() => {
    if (baseDir) rmSync(baseDir, { recursive: true, force: true });
  });

  it("runs bash and python in the container and cleans up", async () => {
    baseDir = mkdtempSync(join(tmpdir(), "raas-apptainer-test-"));
    const runtime = new ApptainerRuntime({ binaryPath: binary!, defaultImage: image!, baseDir });
    const sandbox = await runtime.create({ files: { "hello.txt": "hi" } });
    expect(
      (await sandbox.runTool("bash", { command: "cat /workspace/hello.txt; ls /root 2>&1 | head -1" }))
        .output,
    ).toContain("hi");
    expect((await sandbox.runTool("python", { code: "x = 2\nx ** 10" })).output).toBe("1024\n");
    await sandbox.close();
    expect(sandbox.state).toBe("closed");
    await runtime.closeAll();
  });
});

describe("apptainer runtime against a stand-in binary (test double over bubblewrap)", () => {
  const fake = fileURLToPath(new URL("./support/fake-apptainer.sh", import.meta.url));
  const baseDir = mkdtempSync(join(tmpdir(), "raas-apptainer-fake-"));
  afterAll(() => rmSync(baseDir, { recursive: true, force: true }));

  it("starts the server with the runtime's binds and paths, serves tools and cleans up", async () => {
    requireBubblewrap();
    const runtime = new ApptainerRuntime({
      binaryPath: fake,
      defaultImage: "/images/unused.sif",
      // The stand-in runs over the host's /usr, so the host's node-pty fits.
      bindHostNodePty: true,
      baseDir,
      defaultLimits: { maxProcesses: 128 },
    });
    const sandbox = await runtime.create({ files: { "in.txt": "from host" } });
    expect((await sandbox.runTool("bash", { command: "pwd; cat in.txt" })).output).toBe(
      "/workspace\nfrom host",
    );
    expect((await sandbox.runTool("python", { code: "2 ** 10" })).output).toBe("1024\n");
    await sandbox.close();
    expect(sandbox.state).toBe("closed");
  });
});
