// The worker's gateway listener: loopback only, gateway routes only, and a session token works
// for its job while the job runs and for nothing once the job's terminal event arrives.
import type { InferencePool, JobEventListener } from "@raas/engine";
import { MemoryGatewayCallStore } from "@raas/engine";
import { createQwen3ModelFamily } from "@raas/inference";
import type { TJob } from "@raas/shared";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { startWorkerGateway, type WorkerGateway } from "../src/worker-gateway";

let gateway: WorkerGateway | null = null;
afterEach(async () => {
  await gateway?.close();
  gateway = null;
});

describe("worker gateway", () => {
  it("serves a running job's session on loopback and refuses it once the job ended", async () => {
    // `/v1/models` generates nothing: no pool is reached.
    gateway = await startWorkerGateway({
      pool: {} as InferencePool,
      modelName: "qwen3-test",
      family: createQwen3ModelFamily(),
      logger: pino({ level: "silent" }),
    });
    gateway.useCallStore(new MemoryGatewayCallStore());
    let emit: JobEventListener = () => {};
    gateway.composed.follow({
      subscribe: (listener) => {
        emit = listener;
        return () => {};
      },
    });
    expect(gateway.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const { token } = gateway.composed.gateway.openSession("job_a");
    const models = await fetch(`${gateway.url}/gateway/${token}/v1/models`);
    expect(models.status).toBe(200);
    expect(((await models.json()) as { data: { id: string }[] }).data[0]?.id).toBe("qwen3-test");

    const notGateway = await fetch(`${gateway.url}/api/v1/jobs`);
    expect(notGateway.status).toBe(404);
    expect(((await notGateway.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
    const unknown = await fetch(`${gateway.url}/gateway/gw_unknown/v1/models`);
    expect(unknown.status).toBe(401);

    emit({ type: "job.updated", job: { id: "job_a", status: "completed" } as TJob });
    const expired = await fetch(`${gateway.url}/gateway/${token}/v1/models`);
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { error: { message: string } }).error.message).toMatch(/expired/);
  });
});
