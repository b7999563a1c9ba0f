// Per-step rewards from a Harbor verifier, through the harbor handler's three stages on real
// bubblewrap sandboxes with a scripted policy: the shipped log-report task's reward.json names
// the last turn that touched report.json (read from /logs/agent/turns.json), and the stored
// reward lands on that turn's span of sampled tokens in the export. A verifier naming a turn the
// trajectory lacks, or writing malformed entries, is infrastructure (`eval`), never dropped.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TJob, TTrajectoryExport } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { harborJobRequest, loadHarborTask } from "../../src/harbor/harbor-task-loader";
import {
  bash,
  HARBOR_EXAMPLES_DIR,
  type HarborEngine,
  oracleTurns,
  startHarborEngine,
} from "./support/harbor-engine";

const LOG_REPORT = join(HARBOR_EXAMPLES_DIR, "log-report");
const LABEL = "last turn that touched report.json";
const decode = (ids: readonly number[]) => ids.map((id) => String.fromCodePoint(id)).join("");

/** A one-file task whose tests write `rewardJson` as reward.json, whatever the agent did. */
function writeTask(root: string, name: string, rewardJson: unknown): string {
  const dir = join(root, name);
  mkdirSync(join(dir, "tests"), { recursive: true });
  mkdirSync(join(dir, "environment"), { recursive: true });
  writeFileSync(join(dir, "instruction.md"), "Do nothing; call submit.\n");
  writeFileSync(join(dir, "task.toml"), "[verifier]\ntimeout_sec = 30.0\n[agent]\ntimeout_sec = 60.0\n");
  writeFileSync(join(dir, "environment", "README"), "empty\n");
  writeFileSync(
    join(dir, "tests", "test.sh"),
    `#!/bin/bash\nmkdir -p /logs/verifier\necho '${JSON.stringify(rewardJson)}' > /logs/verifier/reward.json\n`,
  );
  return dir;
}

describe("per-step rewards from a Harbor verifier", () => {
  let harbor: HarborEngine;
  let tmp = "";
  const finished = new Map<string, TJob>();
  const exported = new Map<string, TTrajectoryExport>();

  beforeAll(async () => {
    harbor = await startHarborEngine();
    tmp = mkdtempSync(join(tmpdir(), "raas-turn-rewards-"));
    const logReport = await loadHarborTask(LOG_REPORT);
    const [oracle] = oracleTurns(logReport.task);
    harbor.script("steps-oracle", [
      [bash("ls /workspace/logs")],
      [bash("echo '{}' > /workspace/report.json")],
      oracle ?? [],
    ]);
    harbor.script("steps-partial", [
      [bash(`echo '{"requests": 7, "bytes": 4800}' > /workspace/report.json`)],
    ]);
    harbor.script("steps-none", [[bash("ls")]]);
    const outside = await loadHarborTask(
      writeTask(tmp, "outside", { reward: 1, turn_rewards: [{ turn: 5, reward: 1 }] }),
    );
    const malformed = await loadHarborTask(
      writeTask(tmp, "malformed", { reward: 1, turn_rewards: [{ turn: 0, score: 1 }] }),
    );
    const requests = [
      harborJobRequest(logReport, { taskId: "steps-oracle" }),
      harborJobRequest(logReport, { taskId: "steps-partial" }),
      harborJobRequest(logReport, { taskId: "steps-none" }),
      harborJobRequest(outside, { taskId: "outside" }),
      harborJobRequest(malformed, { taskId: "malformed" }),
    ];
    for (const [taskId, job] of await harbor.runJobs(requests, 300_000)) {
      finished.set(taskId, job);
      exported.set(taskId, await harbor.engine.exportTrajectory(job.id));
    }
  }, 400_000);

  afterAll(async () => {
    await harbor?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("stores the verifier's turn rewards on the job; the scalar reward stays the trajectory's", () => {
    const oracle = finished.get("steps-oracle");
    expect([oracle?.status, oracle?.reward]).toEqual(["completed", 1]);
    expect(oracle?.turnRewards).toEqual([{ turn: 2, reward: 1, label: LABEL }]);
    const partial = finished.get("steps-partial");
    expect([partial?.status, partial?.reward]).toEqual(["completed", 0]);
    expect(partial?.turnRewards).toEqual([{ turn: 0, reward: 0.5, label: LABEL }]);
    const none = finished.get("steps-none");
    expect([none?.status, none?.reward, none?.turnRewards]).toEqual(["completed", 0, undefined]);
    // turn_rewards is not one of the named scalar rewards.
    expect((oracle?.result as { verifier?: { rewards: object } } | undefined)?.verifier?.rewards).toEqual({
      requests: 1,
      status: 1,
      top_path: 1,
      bytes: 1,
      reward: 1,
    });
  });

  it("exports each turn reward on its turn's span: those tokens decode to that turn's text", async () => {
    const row = exported.get("steps-oracle") as TTrajectoryExport;
    expect(row.tokenExact).toBe(true);
    expect(row.turnCount).toBe(4);
    expect(row.turnRewards).toHaveLength(1);
    const [entry] = row.turnRewards;
    const span = row.turns.find((t) => t.index === 2);
    expect(entry).toEqual({
      turn: 2,
      reward: 1,
      source: "verifier",
      label: LABEL,
      toolCallIndex: null,
      start: span?.start,
      end: span?.end,
    });
    const { turns } = await harbor.engine.getTrajectory(row.jobId);
    const text = decode(row.tokens.slice(entry?.start ?? 0, entry?.end ?? 0));
    expect(text).toBe(turns.find((t) => t.index === 2)?.text);
    expect(text).toContain("subprocess");
    expect(row.lossMask.slice(entry?.start ?? 0, entry?.end ?? 0).every((m) => m === 1)).toBe(true);
    expect(exported.get("steps-none")?.turnRewards).toEqual([]);
  });

  it("fails as eval (infrastructure) when the verifier names a turn the trajectory lacks", () => {
    const job = finished.get("outside");
    expect([job?.status, job?.reward, job?.trainable, job?.failure?.kind]).toEqual([
      "failed",
      null,
      false,
      "eval",
    ]);
    expect(job?.failure?.message).toBe(
      "the verifier gave a reward to turn 5, but the trajectory has 1 turn (0)",
    );
    expect(job?.turnRewards).toBeUndefined();
  });

  it("fails as eval when the verifier's turn_rewards are malformed, naming the field", () => {
    const job = finished.get("malformed");
    expect([job?.status, job?.failure?.kind]).toEqual(["failed", "eval"]);
    expect(job?.failure?.message).toContain("reward.json turn_rewards is malformed");
    expect(job?.failure?.message).toContain("turn_rewards[0]");
  });
});
