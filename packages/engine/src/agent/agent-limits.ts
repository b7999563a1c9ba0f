import type { AgentLoopLimits } from "./agent-loop.types";

const DEFAULT_AGENT_LIMITS: Required<Omit<AgentLoopLimits, "minResponseTokens">> = {
  maxTurns: 30,
  maxContextTokens: 32_768,
  maxTokensPerTurn: 4_096,
  timeBudgetMs: 1_800_000,
  toolTimeoutMs: 30_000,
  maxRepeatedActions: 5,
  maxObservationChars: 16_000,
  maxRecordedOutputChars: 8_000,
};

export function resolveAgentLimits(limits: AgentLoopLimits = {}): Required<AgentLoopLimits> {
  const merged = { ...DEFAULT_AGENT_LIMITS, ...stripUndefined(limits) };
  return { ...merged, minResponseTokens: limits.minResponseTokens ?? Math.min(merged.maxTokensPerTurn, 256) };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
