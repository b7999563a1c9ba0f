/**
 * Published SWE-Bench Verified figures the comparison pages show as reference rows: ProRL Agent
 * (arXiv 2603.18815), Table 2. They are the paper's numbers, not runs of this service.
 */
export interface TReferenceFigure {
  model: string;
  size: string;
  dataset: string;
  /** Resolved % of the base model, as published; null where the table gives one figure. */
  baseResolvedPercent: number | null;
  /** Resolved % after RL training (ProRL Agent), or the single published figure. */
  resolvedPercent: number;
  /** What `resolvedPercent` is. */
  note: string;
}

export const REFERENCE_SOURCE = "ProRL Agent (arXiv 2603.18815), Table 2";

export const PUBLISHED_REFERENCE: readonly TReferenceFigure[] = [
  {
    model: "Qwen3-4B",
    size: "4B",
    dataset: "SWE-Bench Verified",
    baseResolvedPercent: 14.8,
    resolvedPercent: 21.2,
    note: "base → after RL with ProRL Agent",
  },
  {
    model: "Qwen3-8B",
    size: "8B",
    dataset: "SWE-Bench Verified",
    baseResolvedPercent: 9.6,
    resolvedPercent: 18.0,
    note: "base → after RL with ProRL Agent",
  },
  {
    model: "Qwen3-14B",
    size: "14B",
    dataset: "SWE-Bench Verified",
    baseResolvedPercent: 15.4,
    resolvedPercent: 23.6,
    note: "base → after RL with ProRL Agent",
  },
  {
    model: "SkyRL-Agent-14B-v0",
    size: "14B",
    dataset: "SWE-Bench Verified",
    baseResolvedPercent: null,
    resolvedPercent: 21.6,
    note: "as published for comparison",
  },
];
