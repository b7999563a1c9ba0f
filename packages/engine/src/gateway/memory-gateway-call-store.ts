import type { TGatewayCallRecord } from "@raas/shared";
import type { GatewayCallStore } from "./gateway-call-store.port";

/** In-memory `GatewayCallStore` (embedded default and tests). */
export class MemoryGatewayCallStore implements GatewayCallStore {
  private readonly byJob = new Map<string, Map<number, TGatewayCallRecord>>();

  async append(record: TGatewayCallRecord): Promise<void> {
    const calls = this.byJob.get(record.jobId) ?? new Map<number, TGatewayCallRecord>();
    calls.set(record.seq, structuredClone(record));
    this.byJob.set(record.jobId, calls);
  }

  async listCalls(jobId: string): Promise<TGatewayCallRecord[]> {
    const calls = [...(this.byJob.get(jobId)?.values() ?? [])];
    return calls.map((call) => structuredClone(call)).sort((a, b) => a.seq - b.seq);
  }
}
