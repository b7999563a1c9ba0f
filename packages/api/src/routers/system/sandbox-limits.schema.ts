import type { SandboxLimitsInForce } from "@raas/engine";
import { z } from "zod";

const ZBytes = z.number().int().nonnegative().nullable();

/** Which limits the sandbox runtime enforces and by what; `null` = not bounded. */
export const ZSandboxLimitsInForce = z
  .object({
    runtime: z.string().describe("Sandbox runtime: bubblewrap, apptainer or local."),
    processes: z
      .object({
        enforcedBy: z.enum(["cgroup", "rlimit", "none"]).describe("What bounds the process count."),
        max: z.number().int().nullable().describe("Most processes per sandbox; null: unbounded."),
      })
      .describe("Process-count limit."),
    memory: z
      .object({
        enforcedBy: z
          .enum(["cgroup", "watchdog", "none"])
          .describe("What bounds memory; watchdog: the host sums the sandbox's RSS."),
        bytes: ZBytes.describe("Memory bound in bytes; null: unbounded."),
      })
      .describe("Whole-sandbox memory limit."),
    cpuTotal: z
      .object({
        enforcedBy: z.enum(["watchdog", "none"]).describe("What bounds total CPU time."),
        seconds: z.number().nullable().describe("CPU seconds the whole sandbox may use; null: unbounded."),
      })
      .describe("Whole-sandbox CPU-time limit."),
    disk: z
      .object({
        enforcedBy: z.enum(["watchdog", "none"]).describe("What bounds the workspace size."),
        bytes: ZBytes.describe("Workspace bound in bytes; null: unbounded."),
      })
      .describe("Workspace size limit."),
    perProcess: z
      .object({
        cpuSec: z.number().nullable().describe("CPU seconds per process (RLIMIT_CPU); null: unbounded."),
        addressSpaceBytes: ZBytes.describe("Address space per process (RLIMIT_AS); null: unbounded."),
        fileBytes: ZBytes.describe("Largest file a process may write (RLIMIT_FSIZE); null: unbounded."),
      })
      .describe("Per-process resource limits."),
    shmBytes: ZBytes.describe("Size of /dev/shm in bytes; null: unbounded."),
    tmpBytes: ZBytes.describe("Size of /tmp in bytes; null: unbounded."),
    toolJail: z
      .enum(["on", "off", "unknown"])
      .describe("Whether tools run jailed away from the sandbox's execution server."),
  })
  .meta({
    id: "SandboxLimits",
    description: "Which limits the sandbox runtime enforces and by what.",
  }) satisfies z.ZodType<SandboxLimitsInForce>;

export type TSandboxLimitsInForce = z.infer<typeof ZSandboxLimitsInForce>;
