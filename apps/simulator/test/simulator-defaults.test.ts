import { SIMULATED_MODEL_NAME } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_CACHE_BLOCKS } from "../src/cache/block-prefix-cache";
import { DEFAULT_DECODE_MS_PER_TOKEN, DEFAULT_PREFILL_MS_PER_TOKEN } from "../src/engine/latency-model";
import { DEFAULT_MAX_CONCURRENCY } from "../src/engine/simulated-model";
import { readSimulatorConfig, SIMULATOR_USAGE } from "../src/env";
import { type RunningSimulator, startSimulator } from "../src/start-simulator";

let running: RunningSimulator | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe("simulator model name", () => {
  it("defaults to SIMULATED_MODEL_NAME from the command line and in process", async () => {
    expect(readSimulatorConfig([], {}).modelName).toBe(SIMULATED_MODEL_NAME);
    expect(readSimulatorConfig(["--model-name", "m"], {}).modelName).toBe("m");
    running = await startSimulator({ port: 0 });
    const models = (await (await fetch(`${running.url}/v1/models`)).json()) as {
      data: Array<{ id: string }>;
    };
    expect(models.data.map((model) => model.id)).toEqual([SIMULATED_MODEL_NAME]);
  });

  it("takes its tuning defaults from the modules that apply them, and prints them", () => {
    expect(readSimulatorConfig([], {})).toMatchObject({
      maxConcurrency: DEFAULT_MAX_CONCURRENCY,
      cache: { capacityBlocks: DEFAULT_CACHE_BLOCKS },
      latency: {
        prefillMsPerToken: DEFAULT_PREFILL_MS_PER_TOKEN,
        decodeMsPerToken: DEFAULT_DECODE_MS_PER_TOKEN,
      },
    });
    expect(SIMULATOR_USAGE).toContain(`batch slots (default ${DEFAULT_MAX_CONCURRENCY})`);
    expect(SIMULATOR_USAGE).toContain(`reported model name (default ${SIMULATED_MODEL_NAME})`);
  });
});
