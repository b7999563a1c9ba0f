import { DEFAULT_MAX_BODY_BYTES, DEFAULT_SERVER_URL, MAX_JOB_WAIT_MS } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { webEnv } from "../env";

describe("dashboard env defaults", () => {
  it("match the server's: its address, its body limit, and a proxy timeout past the longest jobs.wait", () => {
    for (const name of ["RAAS_SERVER_URL", "RAAS_PROXY_TIMEOUT_MS", "RAAS_MAX_BODY_BYTES"])
      delete process.env[name];
    const env = webEnv();
    expect(env.RAAS_SERVER_URL).toBe(DEFAULT_SERVER_URL);
    expect(env.RAAS_MAX_BODY_BYTES).toBe(DEFAULT_MAX_BODY_BYTES);
    expect(env.RAAS_PROXY_TIMEOUT_MS).toBeGreaterThan(MAX_JOB_WAIT_MS);
    expect(env.RAAS_PROXY_TIMEOUT_MS).toBe(65_000);
  });
});
