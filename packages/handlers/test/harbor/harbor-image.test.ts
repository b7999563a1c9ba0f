// Harbor tasks on their own prebuilt images (bubblewrap, the image cache): a task whose Dockerfile
// RUNs what the host lacks runs on the image beside it (a SIF) or the one task.toml names (an OCI
// layout with its tag), its workdir copied into the workspace; a task that only ships a Dockerfile,
// or names a registry image, is refused saying what is missing.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { buildTestImages, type TestImages } from "@raas/sandbox/testing";
import { failureOf, type TJob } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarborHandler } from "../../src/harbor/harbor-handler";
import { ZHarborPayload } from "../../src/harbor/harbor-task.schema";
import { harborJobRequest, loadHarborTask } from "../../src/harbor/harbor-task-loader";
import { createOraclePolicy, oracleChatFormat } from "../../src/oracle/oracle-policy";
import { bash, type HarborEngine, oracleTurns, startHarborEngine } from "./support/harbor-engine";

/** The program the task's image holds at /app: `itertools.batched` exists from Python 3.12 on. */
const PAIRS_PY = "import itertools\nprint(list(itertools.batched(range(6), 3)))\n";
/** The image: Debian trixie's Python 3.13, with what the Dockerfile's COPY put in /app. */
const RECIPE = { files: { "app/pairs.py": PAIRS_PY } };

const TASK_FILES: Record<string, string> = {
  "instruction.md": "Make /app/pairs.py print the numbers 0 to 5 in pairs.\n",
  "task.toml": "[verifier]\ntimeout_sec = 60\n\n[agent]\ntimeout_sec = 120\n",
  "environment/Dockerfile": [
    "FROM python:3.13-slim",
    "WORKDIR /app",
    "COPY pairs.py /app/pairs.py",
    "RUN pip install --no-cache-dir --upgrade pip",
    "ENV PAIRS_MODE=strict",
    "",
  ].join("\n"),
  "environment/pairs.py": PAIRS_PY,
  "tests/test.sh": [
    "#!/bin/bash",
    "out=$(cd /app && python3 pairs.py 2>&1)",
    'if [ "$out" = "[(0, 1), (2, 3), (4, 5)]" ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt',
    "",
  ].join("\n"),
  "solution/solve.sh": "#!/bin/bash\nsed -i 's/range(6), 3/range(6), 2/' /app/pairs.py\n",
};
const PROBE = 'python3 --version; echo "mode=$PAIRS_MODE"; ls /workspace';

describe("Harbor tasks on their prebuilt images", () => {
  const root = mkdtempSync(join(tmpdir(), "raas-harbor-image-"));
  chmodSync(root, 0o755);
  let images: TestImages;
  let harbor: HarborEngine;

  /** A Harbor-shaped task directory named `name`, with `extra` files (or replacements). */
  function makeTask(name: string, extra: Record<string, string> = {}): string {
    const dir = join(root, name);
    for (const [path, text] of Object.entries({ ...TASK_FILES, ...extra })) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text, { mode: path.endsWith(".sh") ? 0o755 : 0o644 });
    }
    return dir;
  }

  beforeAll(async () => {
    images = await buildTestImages(RECIPE);
    harbor = await startHarborEngine();
  }, 600_000);
  afterAll(async () => {
    await harbor?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("runs on the SIF beside the task and on the OCI layout task.toml names: oracle 1, no-op 0, the image's Python", async () => {
    const besideDir = makeTask("pairs-sif");
    symlinkSync(images.sif, join(besideDir, "image.sif"));
    const namedDir = makeTask("pairs-oci", {
      "task.toml": `${TASK_FILES["task.toml"]}\n[environment]\ndocker_image = "${images.ociLayout}:trixie"\n`,
    });
    const requests = [];
    const handler = createHarborHandler({
      sandboxRuntime: harbor.runtime,
      inference: createOraclePolicy({ taskIdPattern: /Task id: (\S+)/ }).inference,
      chatFormat: oracleChatFormat,
    });
    const onRun = { metadata: { defaultImage: "/images/run-default.sif" } } as Pick<TJob, "metadata"> as TJob;
    for (const [variant, dir, image] of [
      ["sif", besideDir, join(besideDir, "image.sif")],
      ["oci", namedDir, `${images.ociLayout}:trixie`],
    ] as const) {
      const loaded = await loadHarborTask(dir);
      expect({ variant, incompatibility: loaded.hostIncompatibility }).toEqual({
        variant,
        incompatibility: null,
      });
      expect(loaded.task.config.image).toBe(image);
      // The image itself never rides in the payload.
      expect(loaded.task.environment.map((file) => file.path)).toEqual(["pairs.py"]);
      // Its queue item names the image before INIT (placement), over a run's default.
      const request = harborJobRequest(loaded, { taskId: `${variant}-oracle` });
      expect(handler.imageOf?.(request.payload, onRun)).toBe(image);
      harbor.script(`${variant}-oracle`, oracleTurns(loaded.task));
      harbor.script(`${variant}-noop`, []);
      harbor.script(`${variant}-probe`, [[bash(PROBE)]]);
      for (const role of ["oracle", "noop", "probe"])
        requests.push(harborJobRequest(loaded, { taskId: `${variant}-${role}` }));
    }
    const jobs = await harbor.runJobs(requests);
    const outcome = (job: TJob | undefined) => [job?.status, job?.reward, job?.failure?.message ?? null];
    for (const variant of ["sif", "oci"]) {
      expect({ variant, oracle: outcome(jobs.get(`${variant}-oracle`)) }).toEqual({
        variant,
        oracle: ["completed", 1, null],
      });
      expect({ variant, noop: outcome(jobs.get(`${variant}-noop`)) }).toEqual({
        variant,
        noop: ["completed", 0, null],
      });
      const probe = jobs.get(`${variant}-probe`)!;
      // The image's Python, the Dockerfile's ENV, the image's /app copied into the workspace.
      expect(await harbor.toolOutputs(probe.id)).toMatch(/^Python 3\.13\.\d+\nmode=strict\npairs\.py\n$/);
      expect((probe.result as { environment: Record<string, unknown> }).environment).toMatchObject({
        baseImage: "python:3.13-slim",
        image: variant === "sif" ? join(besideDir, "image.sif") : `${images.ociLayout}:trixie`,
        workdir: "/app",
        ignored: ["line 3: COPY (built into the image)", "line 4: RUN (built into the image)"],
      });
    }
  }, 600_000);

  it("refuses a task that ships only its Dockerfile, or names a registry image, saying what is missing (400)", async () => {
    const cases = {
      "dockerfile-only":
        /^environment\/Dockerfile line 4: RUN changes the image — this task needs its image, and it ships none .* place it next to the task as image\.sif, image\.tar .* or image\.oci\//,
      registry:
        /^task\.toml \[environment\]\.docker_image = "python:3\.13-slim" names a registry image, which RaaS cannot pull .* place it next to the task as image\.sif/,
    };
    const registryToml = `${TASK_FILES["task.toml"]}\n[environment]\ndocker_image = "python:3.13-slim"\n`;
    for (const [name, reason] of Object.entries(cases)) {
      const loaded = await loadHarborTask(
        makeTask(name, name === "registry" ? { "task.toml": registryToml } : {}),
      );
      expect(loaded.hostIncompatibility, name).toMatch(reason);
      expect(() => harborJobRequest(loaded), name).toThrow(loaded.hostIncompatibility!);
      // A payload made by hand is refused at submit: VALIDATION_FAILED, a 400 through the API.
      expect(ZHarborPayload.safeParse({ taskId: name, task: loaded.task }).success, name).toBe(false);
      const refused = await harbor.engine
        .submitJob({ kind: "harbor", payload: { taskId: name, task: loaded.task } })
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(failureOf(refused), name).toMatchObject({ kind: "request", code: "VALIDATION_FAILED" });
      expect((refused as Error).message, name).toContain(loaded.hostIncompatibility!);
    }
  }, 120_000);

  it("refuses a docker_image path that does not exist, naming task.toml", async () => {
    const dir = makeTask("missing-image", {
      "task.toml": `${TASK_FILES["task.toml"]}\n[environment]\ndocker_image = "./images/pairs.sif"\n`,
    });
    await expect(loadHarborTask(dir)).rejects.toThrow(
      `missing-image/task.toml: environment.docker_image: ./images/pairs.sif does not exist (looked for ${dir}/images/pairs.sif)`,
    );
  });
});
