import { SIMULATED_MODEL_NAME } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { readSimulatorConfig } from "../src/env";
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
});
