// An exec's `addressSpaceBytes`: a runtime that reserves large virtual ranges up front (Bun's
// JavaScriptCore) gets its RLIMIT_AS raised for that command only; the limit is never lowered,
// other commands keep the sandbox's, and the sandbox's memory bound still stops real use.
import { afterAll, describe, expect, it } from "vitest";
import { createTestRuntime } from "./support/sandbox-fixture";

const MEMORY_BYTES = 256 * 1024 ** 2;
/** Reserves 1 GiB of address space without touching it (no resident memory). */
const RESERVE_1_GIB = "import mmap; m = mmap.mmap(-1, 1 << 30); print('reserved')";

describe("exec with a raised address-space limit", () => {
  const fixture = createTestRuntime();

  afterAll(() => fixture.dispose());

  it("raises RLIMIT_AS for the one command, never lowers it, and keeps the memory bound", async () => {
    const sandbox = await fixture.runtime.create({ limits: { memoryBytes: MEMORY_BYTES } });
    try {
      const limitKib = async (addressSpaceBytes?: number) => {
        const result = await sandbox.exec(["sh", "-c", "ulimit -v"], {
          ...(addressSpaceBytes !== undefined && { addressSpaceBytes }),
        });
        expect(result.exitCode, result.stderr).toBe(0);
        return Number(result.stdout.trim());
      };
      expect(await limitKib()).toBe(MEMORY_BYTES / 1024);
      expect(await limitKib(4 * 1024 ** 3)).toBe((4 * 1024 ** 3) / 1024);
      expect(await limitKib(64 * 1024 ** 2)).toBe(MEMORY_BYTES / 1024);
      // The next command has the sandbox's limit again.
      expect(await limitKib()).toBe(MEMORY_BYTES / 1024);

      const refused = await sandbox.exec(["python3", "-c", RESERVE_1_GIB]);
      expect(refused.exitCode).not.toBe(0);
      expect(refused.stderr).toContain("Cannot allocate memory");
      const reserved = await sandbox.exec(["python3", "-c", RESERVE_1_GIB], {
        addressSpaceBytes: 2 * 1024 ** 3,
      });
      expect(reserved.stdout.trim(), reserved.stderr).toBe("reserved");

      // Using the memory, not just reserving it, is still stopped.
      const hog = await sandbox.exec(
        ["python3", "-c", "x = bytearray(1536 * 1024 ** 2); print('allocated')"],
        {
          addressSpaceBytes: 4 * 1024 ** 3,
          timeoutMs: 60_000,
        },
      );
      expect(hog.stdout).not.toContain("allocated");
      expect(hog.exitCode).not.toBe(0);
      await expect(sandbox.exec(["true"], { addressSpaceBytes: -1 })).rejects.toThrow(/addressSpaceBytes/);
    } finally {
      await sandbox.close();
    }
  }, 120_000);
});
