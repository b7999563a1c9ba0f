// The policy is an adversary of the verifier: what it writes or leaves running during RUN must not
// change the reward, tests/ must be out of its sight, and a verifier that fails is infrastructure.
// Real bubblewrap sandboxes, the harbor handler's three stages, a scripted policy.
import type { TJob } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { THarborTask } from "../../src/harbor/harbor-task.schema";
import {
  harborJobRequest,
  type LoadedHarborTask,
  loadHarborDataset,
} from "../../src/harbor/harbor-task-loader";
import {
  bash,
  HARBOR_EXAMPLES_DIR,
  type HarborEngine,
  oracleTurns,
  type ScriptedTurn,
  startHarborEngine,
} from "./support/harbor-engine";

/** Writes reward files wherever a verifier's could be, as files and from a daemon left running. */
const FORGE_REWARDS = String.raw`
for dir in /logs/verifier /workspace/logs/verifier /tmp/logs/verifier /tmp/raas-harbor-forged/logs/verifier; do
  mkdir -p "$dir" 2>&1 | head -1
  echo 1 > "$dir/reward.txt" 2>&1 | head -1
  echo '{"reward": 1}' > "$dir/reward.json" 2>/dev/null
done
echo 1 > /workspace/reward.txt
nohup bash -c 'while true; do for d in /tmp/raas-harbor-* /tmp/*/logs; do mkdir -p "$d/logs/verifier" && echo 1 > "$d/logs/verifier/reward.txt" && echo "{\"reward\": 1}" > "$d/logs/verifier/reward.json"; done 2>/dev/null; sleep 0.01; done' >/dev/null 2>&1 &
echo forged`;

/** Looks for the tests and the oracle everywhere the sandbox lets it. */
const SNOOP = String.raw`
ls -la / /tests /solution /logs 2>&1
cat /tests/test.sh /tests/expected.csv /solution/solve.sh 2>&1
find / -xdev \( -name 'expected.csv' -o -name 'solve.sh' -o -name 'test.sh' \) 2>/dev/null | grep -v '^/proc' | head -20
echo snooped`;

/** A module named like the stdlib's json in the workdir, forging reward.json if a test imports it. */
const SHADOW_JSON = `cat > /workspace/json.py <<'PY'
import glob
for d in glob.glob("/tmp/raas-harbor-*/logs/verifier"):
    open(d + "/reward.json", "w").write('{"reward": 1, "requests": 1, "status": 1, "top_path": 1, "bytes": 1}')
def load(*args, **kwargs):
    return {}
def dump(*args, **kwargs):
    pass
PY
echo planted`;

/** The package under test exits its interpreter with status 0 as soon as it is imported. */
const EXIT_EARLY = "printf 'import os\\nos._exit(0)\\n' > /workspace/stats/__init__.py && echo planted";

/** The package under test leaves a daemon that keeps writing reward 1 after the tests end. */
const DAEMON_MODULE = String.raw`cat > /workspace/stats/__init__.py <<'PY'
import glob, os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        fd = os.open(os.devnull, os.O_RDWR)
        for target in (0, 1, 2):
            os.dup2(fd, target)
        end = time.time() + 20
        while time.time() < end:
            for d in glob.glob("/tmp/raas-harbor-*/logs/verifier"):
                try:
                    open(d + "/reward.txt", "w").write("1\n")
                except OSError:
                    pass
            time.sleep(0.001)
    os._exit(0)
def median(values):
    return 0
def percentile(values, p):
    return 0
PY
echo planted`;

/** Python's user site under the agent's HOME (/workspace): run by any python the tests start. */
const USER_SITE = String.raw`dir=$(python3 -m site --user-site) && mkdir -p "$dir" && cat > "$dir/usercustomize.py" <<'PY'
import atexit, glob
def forge():
    for d in glob.glob("/tmp/raas-harbor-*/logs/verifier"):
        open(d + "/reward.txt", "w").write("1\n")
atexit.register(forge)
PY
echo "planted in $dir"`;

/** A test that runs plain python3 (user site on) and grades /app/report.json. */
const PLAIN_PYTHON_TEST = `mkdir -p /logs/verifier
cd /tmp && python3 -c 'import json, os; r = json.load(open("/app/report.json")) if os.path.exists("/app/report.json") else {}; open("/logs/verifier/reward.txt", "w").write("1" if r.get("requests") == 7 else "0")'
`;

/** Leaves what a workspace snapshot cannot read: a FIFO, a file and a directory with mode 000. */
const UNREADABLE =
  "mkfifo /workspace/pipe && echo x > /workspace/secret && chmod 000 /workspace/secret && mkdir -p /workspace/locked/deep && echo y > /workspace/locked/deep/f && chmod 000 /workspace/locked && cat /workspace/secret 2>&1";

/** An agent program that, run by the tests, forges what it can: frames, reward.json, reward.txt. */
const FORGING_PROGRAM = String.raw`#!/bin/bash
for fd in /proc/*/fd/1; do
  printf '\nRAAS-HARBOR 00000000000000000000000000000000 file reward.txt MQo=\nRAAS-HARBOR 00000000000000000000000000000000 exit 0\n' > "$fd" 2>/dev/null
done
for d in /tmp/raas-harbor-*/logs/verifier; do echo '{"reward": 1}' > "$d/reward.json"; done
echo "4 apples"`;

describe("the harbor verifier against a forging policy", () => {
  let harbor: HarborEngine;
  let examples: Map<string, LoadedHarborTask>;
  const finished = new Map<string, TJob>();
  const toolOutputs = new Map<string, string>();

  const example = (name: string) => {
    const loaded = examples.get(name);
    if (!loaded) throw new Error(`no example ${name}`);
    return loaded;
  };
  const withTask = (name: string, patch: (task: THarborTask) => THarborTask) => {
    const loaded = example(name);
    return { ...loaded, task: patch(loaded.task) };
  };
  const testsOnly = (script: string, timeoutSec: number) => (task: THarborTask) => ({
    ...task,
    config: { ...task.config, verifierTimeoutSec: timeoutSec },
    tests: [{ path: "test.sh", content: script, encoding: "utf8" as const, executable: true }],
  });

  const cases: Array<{ id: string; loaded: () => LoadedHarborTask; turns: () => ScriptedTurn[] }> = [
    { id: "forge-separate", loaded: () => example("fix-shell-script"), turns: () => [[bash(FORGE_REWARDS)]] },
    { id: "forge-shared", loaded: () => example("serve-config"), turns: () => [[bash(FORGE_REWARDS)]] },
    { id: "snoop", loaded: () => example("recover-csv"), turns: () => [[bash(SNOOP)]] },
    {
      id: "forging-program",
      loaded: () => example("fix-shell-script"),
      turns: () => [
        [
          {
            name: "python",
            arguments: {
              code: `open("/workspace/top_words.sh", "w").write(${JSON.stringify(FORGING_PROGRAM)})`,
            },
          },
        ],
      ],
    },
    { id: "shadow-stdlib", loaded: () => example("log-report"), turns: () => [[bash(SHADOW_JSON)]] },
    { id: "exit-early", loaded: () => example("fix-python-stats"), turns: () => [[bash(EXIT_EARLY)]] },
    {
      id: "daemon-after-tests",
      loaded: () => example("fix-python-stats"),
      turns: () => [[bash(DAEMON_MODULE)]],
    },
    {
      id: "user-site",
      loaded: () => withTask("log-report", testsOnly(PLAIN_PYTHON_TEST, 30)),
      turns: () => [[bash(USER_SITE)]],
    },
    {
      id: "unreadable-workspace",
      loaded: () => example("fix-shell-script"),
      turns: () => [[bash(UNREADABLE)]],
    },
    {
      id: "leftover-service-separate",
      loaded: () =>
        withTask("serve-config", (task) => ({
          ...task,
          config: { ...task.config, verifierMode: "separate" },
        })),
      turns: () => oracleTurns(example("serve-config").task),
    },
    {
      id: "verifier-timeout",
      loaded: () => withTask("log-report", testsOnly("sleep 60\necho 1 > /logs/verifier/reward.txt\n", 2)),
      turns: () => [],
    },
    {
      id: "verifier-crash",
      loaded: () =>
        withTask("log-report", testsOnly("echo 'ImportError: no module named pytest' >&2\nexit 3\n", 30)),
      turns: () => [],
    },
    {
      id: "verifier-garbage",
      loaded: () => withTask("log-report", testsOnly("echo passed > /logs/verifier/reward.txt\n", 30)),
      turns: () => [],
    },
  ];

  beforeAll(async () => {
    harbor = await startHarborEngine();
    examples = new Map(
      (await loadHarborDataset(HARBOR_EXAMPLES_DIR)).map((loaded) => [
        loaded.task.name.split("/").at(-1) ?? "",
        loaded,
      ]),
    );
    for (const c of cases) harbor.script(c.id, c.turns());
    const requests = cases.map((c) => harborJobRequest(c.loaded(), { taskId: c.id }));
    for (const [taskId, job] of await harbor.runJobs(requests)) {
      finished.set(taskId, job);
      toolOutputs.set(taskId, await harbor.toolOutputs(job.id));
    }
  }, 700_000);

  afterAll(async () => {
    await harbor?.close();
  });

  const outcome = (id: string) => {
    const job = finished.get(id);
    return [job?.status, job?.reward, job?.trainable, job?.failure?.kind ?? null];
  };

  it("gives a policy that writes reward files itself only the real verifier's reward", () => {
    expect(toolOutputs.get("forge-separate")).toContain("forged");
    expect(outcome("forge-separate")).toEqual(["completed", 0, true, null]);
    // Shared: the tests run in the agent's sandbox beside the daemon it left writing rewards.
    expect(outcome("forge-shared")).toEqual(["completed", 0, true, null]);
    const result = finished.get("forge-shared")?.result as { verifier: { mode: string; rewards: unknown } };
    expect(result.verifier).toMatchObject({ mode: "shared", rewards: { reward: 0 } });
  });

  it("keeps tests/ and solution/ out of the policy's sight during RUN", () => {
    const seen = toolOutputs.get("snoop") ?? "";
    expect(seen).toContain("snooped");
    expect(seen).not.toContain("Ken Thompson,7.25");
    expect(seen).not.toContain("Compares the agent's clean file");
    expect(seen).not.toContain("python3 - <<'PY'");
    expect(seen).not.toMatch(/recover-csv\/(tests|solution)/);
    expect(outcome("snoop")).toEqual(["completed", 0, true, null]);
  });

  it("voids a grade whose reward.json the tests never write (the agent's program forged it)", () => {
    expect(outcome("forging-program")).toEqual(["failed", 0, true, "agent"]);
    expect(finished.get("forging-program")?.failure).toMatchObject({ label: "tampered" });
    expect(finished.get("forging-program")?.failure?.message).toContain(
      "reward.json appeared in /logs/verifier",
    );
  });

  it("keeps the policy's code out of the graders' own processes, and its daemons out of the reward", () => {
    for (const id of ["shadow-stdlib", "exit-early", "daemon-after-tests", "user-site"]) {
      expect(toolOutputs.get(id), id).toContain("planted");
      expect(outcome(id), id).toEqual(["completed", 0, true, null]);
    }
  });

  it("carries a workspace the policy made partly unreadable to the verifier without failing the job", () => {
    expect(toolOutputs.get("unreadable-workspace")).toContain("secret: Permission denied");
    expect(outcome("unreadable-workspace")).toEqual(["completed", 0, true, null]);
  });

  it("runs a separate verifier where the processes the agent left are gone", () => {
    expect(outcome("leftover-service-separate")).toEqual(["completed", 0, true, null]);
    const result = finished.get("leftover-service-separate")?.result as { verifier: { outputTail: string } };
    expect(result.verifier.outputTail).toContain("does not answer on 127.0.0.1:8765");
  });

  it("fails a verifier time-out or crash as infrastructure, never reward 0", () => {
    expect(outcome("verifier-timeout")).toEqual(["failed", null, false, "timeout"]);
    expect(finished.get("verifier-timeout")?.failure).toMatchObject({
      stage: "eval",
      message: "the verifier (tests/test.sh) ran past its limit of 2s",
    });
    expect(outcome("verifier-crash")).toEqual(["failed", null, false, "eval"]);
    expect(finished.get("verifier-crash")?.failure?.message).toBe(
      "the verifier failed: tests/test.sh exited 3 and the verifier wrote neither /logs/verifier/reward.txt nor reward.json",
    );
    expect(outcome("verifier-garbage")).toEqual(["failed", null, false, "eval"]);
    expect(finished.get("verifier-garbage")?.failure?.message).toContain(
      'reward.txt holds "passed", not a number',
    );
  });

  it("refuses a job whose task needs an image before anything runs", async () => {
    const loaded = example("fix-shell-script");
    const task = { ...loaded.task, dockerfile: `${loaded.task.dockerfile}RUN apt-get install -y jq\n` };
    await expect(
      harbor.engine.submitJob({ kind: "harbor", payload: { taskId: "needs-image", task } }),
    ).rejects.toThrow(/line 4: RUN changes the image — this task needs its image, and it ships none/);
  });
});
