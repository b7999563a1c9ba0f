import type { TGatewayCallRecord } from "@raas/shared";
import type { GatewayCallStore } from "./gateway-call-store.port";

/**
 * A copy sharing nothing with `record`: token arrays by `slice` (a prompt's thousands of ids cost
 * a tenth of `structuredClone`'s serialization), the JSON parts by `structuredClone`.
 */
function copyRecord(record: TGatewayCallRecord): TGatewayCallRecord {
  return {
    ...record,
    promptIds: record.promptIds.slice(),
    responseIds: record.responseIds.slice(),
    logprobs: record.logprobs.slice(),
    ...(record.topLogprobs && {
      topLogprobs: record.topLogprobs.map((position) => position.map((alt) => ({ ...alt }))),
    }),
    messages: structuredClone(record.messages),
    tools: structuredClone(record.tools),
    answer: structuredClone(record.answer),
    ...(record.toolChoiceViolation && { toolChoiceViolation: structuredClone(record.toolChoiceViolation) }),
    ...(record.sampling && { sampling: { ...record.sampling } }),
    ...(record.overriddenSampling && { overriddenSampling: structuredClone(record.overriddenSampling) }),
  };
}

/**
 * In-memory `GatewayCallStore` (embedded default and tests). `append` keeps the record it is given
 * (the gateway builds a fresh one per call and never changes it afterwards: copying a long
 * conversation on every call would be the gateway's largest cost); `listCalls` hands out copies.
 */
export class MemoryGatewayCallStore implements GatewayCallStore {
  private readonly byJob = new Map<string, Map<number, TGatewayCallRecord>>();

  async append(record: TGatewayCallRecord): Promise<void> {
    const calls = this.byJob.get(record.jobId) ?? new Map<number, TGatewayCallRecord>();
    calls.set(record.seq, record);
    this.byJob.set(record.jobId, calls);
  }

  async deleteCalls(jobId: string): Promise<void> {
    this.byJob.delete(jobId);
  }

  async listCalls(jobId: string): Promise<TGatewayCallRecord[]> {
    const calls = [...(this.byJob.get(jobId)?.values() ?? [])];
    return calls.map(copyRecord).sort((a, b) => a.seq - b.seq);
  }
}
