import type { SandboxLimitsInForce } from "@raas/engine";
import { afterEach, describe, expect, it } from "vitest";
import type { ApiLogger } from "../src/index";
import { http, startTestServer, type TestServer, trpcClient } from "./helpers/test-server";

const LIMITS: SandboxLimitsInForce = {
  runtime: "bubblewrap",
  processes: { enforcedBy: "rlimit", max: 256 },
  memory: { enforcedBy: "watchdog", bytes: 4_429_185_024 },
  cpuTotal: { enforcedBy: "watchdog", seconds: 600 },
  disk: { enforcedBy: "watchdog", bytes: 1_073_741_824 },
  perProcess: { cpuSec: 600, addressSpaceBytes: 4_294_967_296, fileBytes: 1_073_741_824 },
  shmBytes: 268_435_456,
  tmpBytes: 1_073_741_824,
  toolJail: "on",
};

describe("system.health reports the sandbox limits in force", () => {
  let server: TestServer | undefined;
  afterEach(() => server?.close());

  it("answers the runtime's report over tRPC, REST and /health", async () => {
    server = await startTestServer({ sandboxes: { name: "bubblewrap", limitsInForce: () => LIMITS } });
    expect((await trpcClient(server.url).system.health.query()).sandboxLimits).toEqual(LIMITS);
    const rest = await http(`${server.url}/api/v1/health`);
    expect(rest.status).toBe(200);
    expect(rest.body.sandboxLimits.memory).toEqual({ enforcedBy: "watchdog", bytes: 4_429_185_024 });
    expect((await http(`${server.url}/health`)).body.sandboxLimits.toolJail).toBe("on");
  });

  it("reports null without a sandbox runtime", async () => {
    server = await startTestServer();
    expect((await trpcClient(server.url).system.health.query()).sandboxLimits).toBeNull();
  });

  it("still answers 200, with null and a logged warning, when the runtime's report fails or is malformed", async () => {
    const warnings: string[] = [];
    const logger: ApiLogger = {
      debug() {},
      info() {},
      error() {},
      warn: (_fields, message) => warnings.push(message),
    };
    const failing = {
      name: "bubblewrap",
      limitsInForce: (): SandboxLimitsInForce => {
        throw new Error("cannot read /proc");
      },
    };
    server = await startTestServer({ sandboxes: failing, logger });
    const answered = await http(`${server.url}/api/v1/health`);
    expect(answered.status).toBe(200);
    expect(answered.body.sandboxLimits).toBeNull();
    await server.close();
    const malformed = {
      name: "x",
      limitsInForce: () => ({ ...LIMITS, toolJail: "maybe" }) as unknown as SandboxLimitsInForce,
    };
    server = await startTestServer({ sandboxes: malformed, logger });
    expect((await http(`${server.url}/health`)).body).toMatchObject({ status: "ok", sandboxLimits: null });
    expect(warnings).toEqual([
      "the sandbox runtime could not report its limits",
      "the sandbox runtime reported limits in an unexpected shape",
    ]);
  });
});
