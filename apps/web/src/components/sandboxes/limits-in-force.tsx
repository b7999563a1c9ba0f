import { EmptyState } from "@raas/ui/empty-state";
import { FactList } from "@raas/ui/fact-list";
import { Section } from "@raas/ui/section";
import { formatBytes } from "../../lib/format";
import type { TSandboxLimitsView } from "../../trpc/router-types";

function enforced(by: string, bound: string): string {
  return by === "none" ? "not enforced" : `${bound} (${by})`;
}

function seconds(value: number | null): string {
  return value === null ? "unbounded" : `${value} s`;
}

/** The sandbox limits this server's runtime enforces, and what enforces each (`system.health`). */
export function LimitsInForce({ limits }: { limits: TSandboxLimitsView | null | undefined }) {
  return (
    <Section
      id="limits-in-force"
      title="Limits in force"
      description="As this server's sandbox runtime reports them (system.health); workers started with other settings may differ."
    >
      {!limits ? (
        <EmptyState title="This server reports no sandbox limits.">
          <p>
            It runs no sandbox runtime (an API-only server, or agent handlers off). The workers that run the
            jobs enforce their own limits, set by their RAAS_SANDBOX_* variables.
          </p>
        </EmptyState>
      ) : (
        <FactList
          testId="limits-in-force"
          facts={[
            { label: "runtime", value: limits.runtime, testId: "limit-runtime" },
            {
              label: "pids",
              value: enforced(
                limits.processes.enforcedBy,
                limits.processes.max === null ? "unbounded" : `${limits.processes.max} processes`,
              ),
              testId: "limit-pids",
            },
            {
              label: "memory",
              value: enforced(limits.memory.enforcedBy, formatBytes(limits.memory.bytes)),
              testId: "limit-memory",
            },
            {
              label: "CPU time (whole sandbox)",
              value: enforced(limits.cpuTotal.enforcedBy, seconds(limits.cpuTotal.seconds)),
              testId: "limit-cpu",
            },
            {
              label: "disk (workspace)",
              value: enforced(limits.disk.enforcedBy, formatBytes(limits.disk.bytes)),
              testId: "limit-disk",
            },
            { label: "CPU per process", value: seconds(limits.perProcess.cpuSec) },
            { label: "address space per process", value: formatBytes(limits.perProcess.addressSpaceBytes) },
            { label: "largest file", value: formatBytes(limits.perProcess.fileBytes) },
            { label: "/dev/shm", value: formatBytes(limits.shmBytes) },
            { label: "/tmp", value: formatBytes(limits.tmpBytes) },
            { label: "tool jail", value: limits.toolJail },
          ]}
        />
      )}
    </Section>
  );
}
