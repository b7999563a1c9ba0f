import { DEFAULT_STOP_GRACE_MS } from "@raas/engine";
import { DEFAULT_HEALTH_CHECK_INTERVAL_MS } from "@raas/inference";
import {
  DEFAULT_DATA_DIR,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MODEL_NAME,
  DEFAULT_SERVER_HOST,
  DEFAULT_SERVER_PORT,
  SIMULATED_MODEL_NAME,
} from "@raas/shared";
import { describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config-from-env";
import { parseServerEnv } from "../src/env";

describe("server env defaults come from the package that owns each one", () => {
  it("an empty environment gets the owners' values", () => {
    const env = parseServerEnv({});
    expect(env).toMatchObject({
      PORT: DEFAULT_SERVER_PORT,
      HOST: DEFAULT_SERVER_HOST,
      RAAS_DATA_DIR: DEFAULT_DATA_DIR,
      RAAS_MODEL: DEFAULT_MODEL_NAME,
      RAAS_SHUTDOWN_GRACE_MS: DEFAULT_STOP_GRACE_MS,
      RAAS_BACKEND_HEALTH_INTERVAL_MS: DEFAULT_HEALTH_CHECK_INTERVAL_MS,
      RAAS_MAX_BODY_BYTES: DEFAULT_MAX_BODY_BYTES,
    });
    // The values users read in the docs.
    expect([DEFAULT_MODEL_NAME, SIMULATED_MODEL_NAME]).toEqual([
      "Qwen/Qwen3-8B",
      "Qwen/Qwen3-8B (simulated)",
    ]);
    expect([DEFAULT_STOP_GRACE_MS, DEFAULT_HEALTH_CHECK_INTERVAL_MS]).toEqual([10_000, 5_000]);
  });

  it("the default model names the backends that name none", () => {
    const config = configFromEnv(parseServerEnv({ RAAS_BACKENDS: "vllm=http://gpu-1:8000" }));
    expect(config.inference?.defaultModelName).toBe(DEFAULT_MODEL_NAME);
  });
});
