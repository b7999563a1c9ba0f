import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readSimulatorConfig } from "./env";

describe("readSimulatorConfig", () => {
  it("takes flags over env over defaults", () => {
    const config = readSimulatorConfig(["--port", "9001", "--policy", "malformed"], {
      SIMULATOR_PORT: "7000",
      SIMULATOR_DECODE_MS_PER_TOKEN: "2",
    });
    expect(config).toMatchObject({
      port: 9001,
      host: "127.0.0.1",
      policy: { kind: "malformed", mode: "invalid-json" },
      latency: { decodeMsPerToken: 2, prefillMsPerToken: 0.01 },
      cache: { capacityBlocks: 65_536 },
      maxConcurrency: 32,
    });
  });

  it("reads a policy file and reports bad values readably", () => {
    const dir = mkdtempSync(join(tmpdir(), "raas-sim-"));
    const file = join(dir, "policy.json");
    writeFileSync(
      file,
      JSON.stringify({ kind: "success-probability", tasks: { t1: { probability: 0.25 } } }),
    );
    expect(readSimulatorConfig(["--policy-file", file], {}).policy).toMatchObject({
      kind: "success-probability",
      tasks: { t1: { probability: 0.25 } },
    });
    expect(() => readSimulatorConfig(["--port", "70000", "--policy", "best"], {})).toThrow(
      /invalid simulator configuration:\n {2}--port: .*\n {2}--policy: /,
    );
    expect(() => readSimulatorConfig(["--bogus"], {})).toThrow(/bogus/);
  });
});
