// Reading Harbor task directories: what loads, and the error a bad one gets (file and field named).
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZHarborPayload } from "../../src/harbor/harbor-task.schema";
import { harborJobRequest, loadHarborDataset, loadHarborTask } from "../../src/harbor/harbor-task-loader";

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "raas-harbor-loader-"));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const TOML = `schema_version = "1.1"
[agent]
timeout_sec = 120.0
[verifier]
timeout_sec = 30.0
[environment]
cpus = 2
memory = "4G"
storage_mb = 2048
`;

/** Writes a task directory from `files` (path → content; null leaves a default file out). */
function makeTask(name: string, files: Record<string, string | Buffer | null> = {}): string {
  const dir = join(root, name);
  const all: Record<string, string | Buffer | null> = {
    "task.toml": TOML,
    "instruction.md": "Write /app/out.txt.\n",
    "environment/Dockerfile": "FROM python:3.12-slim\nWORKDIR /app\nCOPY input.txt /app/\n",
    "environment/input.txt": "hello\n",
    "tests/test.sh": "echo 1 > /logs/verifier/reward.txt\n",
    "solution/solve.sh": "cp /app/input.txt /app/out.txt\n",
    ...files,
  };
  for (const [path, content] of Object.entries(all)) {
    if (content === null) continue;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

const failureOf = async (dir: string) =>
  loadHarborTask(dir).then(
    () => "loaded",
    (error: Error) => error.message,
  );

describe("loadHarborTask", () => {
  it("reads a task directory and normalizes its task.toml", async () => {
    const dir = makeTask("good", { "environment/tool.bin": Buffer.from([0, 1, 2, 255]) });
    chmodSync(join(dir, "tests/test.sh"), 0o755);
    const loaded = await loadHarborTask(dir);
    expect(loaded.hostIncompatibility).toBeNull();
    expect(loaded.task).toMatchObject({
      name: "good",
      instruction: "Write /app/out.txt.\n",
      dockerfile: "FROM python:3.12-slim\nWORKDIR /app\nCOPY input.txt /app/\n",
      config: {
        agentTimeoutSec: 120,
        verifierTimeoutSec: 30,
        verifierMode: "separate",
        cpus: 2,
        memoryMb: 4096,
        storageMb: 2048,
        gpus: 0,
      },
      environment: [
        { path: "input.txt", content: "hello\n", encoding: "utf8", executable: false },
        { path: "tool.bin", content: Buffer.from([0, 1, 2, 255]).toString("base64"), encoding: "base64" },
      ],
      tests: [{ path: "test.sh", executable: true }],
      solution: [{ path: "solve.sh" }],
    });
    const request = harborJobRequest(loaded);
    expect(request.payload.agent).toEqual({ timeBudgetMs: 120_000 });
    expect(request.timeoutsMs).toEqual({ run: 480_000, eval: 150_000 });
    expect(ZHarborPayload.safeParse(request.payload).success).toBe(true);
    const own = harborJobRequest(loaded, { taskId: "t-1", agent: { timeBudgetMs: 5_000, maxTurns: 3 } });
    expect([own.payload.taskId, own.payload.agent, own.timeoutsMs.run]).toEqual([
      "t-1",
      { timeBudgetMs: 5_000, maxTurns: 3 },
      365_000,
    ]);
  });

  it("names the file and the field of what is wrong", async () => {
    expect(await failureOf(makeTask("no-toml", { "task.toml": null }))).toBe(
      "no-toml/task.toml: missing (every Harbor task has one)",
    );
    expect(await failureOf(makeTask("no-instruction", { "instruction.md": null }))).toBe(
      "no-instruction/instruction.md: missing (the agent's instruction)",
    );
    expect(await failureOf(makeTask("no-tests", { "tests/test.sh": null }))).toBe(
      "no-tests/tests/test.sh: missing (the verifier)",
    );
    expect(await failureOf(makeTask("bad-toml", { "task.toml": "[verifier\ntimeout_sec = 1" }))).toMatch(
      /^bad-toml\/task\.toml: not valid TOML: /,
    );
    expect(await failureOf(makeTask("bad-type", { "task.toml": '[verifier]\ntimeout_sec = "soon"\n' }))).toBe(
      "bad-type/task.toml: verifier.timeout_sec: expected number, received string",
    );
    expect(
      await failureOf(makeTask("bad-mode", { "task.toml": '[verifier]\nenvironment_mode = "elsewhere"\n' })),
    ).toMatch(/^bad-mode\/task\.toml: verifier\.environment_mode: /);
    expect(await failureOf(makeTask("bad-memory", { "task.toml": '[environment]\nmemory = "lots"\n' }))).toBe(
      "bad-memory/task.toml: environment.memory: a size such as 512M or 4G",
    );
    expect(
      await failureOf(
        makeTask("templated", { "task.toml": `[environment]\nenv = { TOKEN = "\${HOST_TOKEN}" }\n` }),
      ),
    ).toMatch(/^templated\/task\.toml: environment\.env\.TOKEN: \$\{VAR\} templating/);
  });

  it("refuses a symlink rather than following it out of the task", async () => {
    const dir = makeTask("linked");
    symlinkSync("/etc/passwd", join(dir, "environment/passwd"));
    expect(await failureOf(dir)).toBe(
      "linked/environment/passwd: only regular files and directories are read (a symlink or special file)",
    );
  });

  it("loads a task that needs an image but says so, and never makes it a payload", async () => {
    const cases = {
      "needs-run": { "environment/Dockerfile": "FROM debian\nWORKDIR /app\nRUN apt-get install -y jq\n" },
      "needs-image": { "task.toml": '[environment]\ndocker_image = "ghcr.io/x/y:1"\n' },
      "needs-compose": { "environment/docker-compose.yaml": "services: {}\n" },
      "needs-gpu": { "task.toml": "[environment]\ngpus = 1\n" },
    };
    for (const [name, files] of Object.entries(cases)) {
      const loaded = await loadHarborTask(makeTask(name, files));
      expect(loaded.hostIncompatibility, name).toMatch(/not supported yet|no GPUs|ships none|cannot pull/);
      expect(() => harborJobRequest(loaded), name).toThrow(loaded.hostIncompatibility ?? "");
      const crafted = ZHarborPayload.safeParse({ taskId: name, task: loaded.task });
      expect(crafted.success, name).toBe(false);
    }
    const run = await loadHarborTask(join(root, "needs-run"));
    expect(run.hostIncompatibility).toBe(
      "environment/Dockerfile line 3: RUN changes the image — this task needs its image, and it ships none (the host image lacks what this line adds). RaaS cannot build a Dockerfile: build the image where Docker or Apptainer runs and place it next to the task as image.sif, image.tar (an OCI or docker save archive) or image.oci/ (an OCI layout), or name it in task.toml [environment].docker_image (an absolute path, or ./ relative to the task)",
    );
  });
});

describe("loadHarborDataset", () => {
  it("reads every task directory below a dataset, sorted, and a task directory as itself", async () => {
    const dataset = join(root, "dataset");
    mkdirSync(dataset);
    for (const name of ["b-task", "a-task"]) {
      const dir = makeTask(name);
      rmSync(join(dataset, name), { recursive: true, force: true });
      mkdirSync(join(dataset, name));
      for (const part of ["task.toml", "instruction.md", "environment", "tests"])
        cpSync(join(dir, part), join(dataset, name, part), { recursive: true });
    }
    mkdirSync(join(dataset, "notes"));
    writeFileSync(join(dataset, "notes", "README.md"), "not a task\n");
    expect((await loadHarborDataset(dataset)).map((t) => t.task.name)).toEqual(["a-task", "b-task"]);
    expect((await loadHarborDataset(join(dataset, "a-task"))).map((t) => t.task.name)).toEqual(["a-task"]);
    mkdirSync(join(dataset, "half"));
    writeFileSync(join(dataset, "half", "instruction.md"), "x\n");
    await expect(loadHarborDataset(dataset)).rejects.toThrow("half/task.toml: missing");
  });
});
