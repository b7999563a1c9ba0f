import type { SandboxLimitsInForce } from "@raas/engine";
import { z } from "zod";

const ZBytes = z.number().int().nonnegative().nullable();

/** Which limits the sandbox runtime enforces and by what; `null` = not bounded. */
export const ZSandboxLimitsInForce = z.object({
  runtime: z.string().describe("Sandbox runtime: bubblewrap, apptainer or local."),
  processes: z.object({ enforcedBy: z.enum(["cgroup", "rlimit", "none"]), max: z.number().int().nullable() }),
  memory: z.object({
    enforcedBy: z.enum(["cgroup", "watchdog", "none"]).describe("watchdog: the host sums the sandbox's RSS"),
    bytes: ZBytes,
  }),
  cpuTotal: z.object({ enforcedBy: z.enum(["watchdog", "none"]), seconds: z.number().nullable() }),
  disk: z.object({ enforcedBy: z.enum(["watchdog", "none"]), bytes: ZBytes }),
  perProcess: z.object({ cpuSec: z.number().nullable(), addressSpaceBytes: ZBytes, fileBytes: ZBytes }),
  shmBytes: ZBytes,
  tmpBytes: ZBytes,
  toolJail: z.enum(["on", "off", "unknown"]),
}) satisfies z.ZodType<SandboxLimitsInForce>;

export type TSandboxLimitsInForce = z.infer<typeof ZSandboxLimitsInForce>;
