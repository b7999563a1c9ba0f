import { expect } from "vitest";
import type { RolloutFixture } from "./rollout-fixture";

const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

/**
 * Kills a job's sandbox mid-RUN from outside and expects what infrastructure failures get: the
 * job starts again from INIT. Waits (at most a minute) until the job is in RUN with its sandbox
 * (the fixture's sandbox number `index`) busy running a tool, SIGKILLs every process of that
 * sandbox, expects attempt 2 within a minute, then cancels the job and expects it cancelled, not
 * trainable, and the killed sandbox torn down as `failed`.
 */
export async function expectRestartAfterSandboxKill(
  fixture: RolloutFixture,
  jobId: string,
  index: number,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  const isRunningTool = async () =>
    (await fixture.engine.getJob(jobId)).stage === "run" && fixture.sandboxes[index]?.state === "busy";
  while (Date.now() < deadline && !(await isRunningTool())) await pause();
  const sandbox = fixture.sandboxes[index];
  expect(sandbox?.state).toBe("busy");
  const pids = (sandbox as unknown as { processIds(): number[] }).processIds();
  expect(pids.length).toBeGreaterThan(0);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone (a short-lived process of the sandbox): nothing to kill.
    }
  }
  // The new attempt's scripted tool call is not waited for.
  const restartDeadline = Date.now() + 60_000;
  while (Date.now() < restartDeadline && (await fixture.engine.getJob(jobId)).attempts < 2) await pause();
  expect((await fixture.engine.getJob(jobId)).attempts).toBe(2);
  await fixture.engine.cancel({ jobId });
  const {
    jobs: [done],
  } = await fixture.engine.waitForJobs([jobId], { timeoutMs: 120_000 });
  expect(done).toMatchObject({ status: "cancelled", attempts: 2, trainable: false, reward: null });
  // Its crash ends the killed sandbox as `failed`: none is left running.
  expect(sandbox?.state).toBe("failed");
}
