// The routing benchmark's workload: skewed multi-turn agent trajectories (task families in
// blocks, long shared system prompts), run turn by turn as token-in/token-out conversations.

import type { GenerateRequest, GenerateResult } from "@raas/engine";
import { createQwen3ModelFamily, TokenConversation } from "@raas/inference";

const GROUP_SIZE = 4;
/** Simulated GPU timing of a full-speed backend (ms per uncached prompt token / per output token). */
export const LATENCY = { prefillMsPerToken: 0.0075, decodeMsPerToken: 1.5 };
/** Every turn: ~150–250 tokens of thinking, then a bash call (simulated time dominates CPU cost). */
export const POLICY = {
  kind: "scripted" as const,
  default: {
    steps: [
      {
        thinkingWords: [120, 200] as [number, number],
        toolCalls: [{ name: "bash", arguments: { command: "ls" } }],
      },
    ],
    repeatLast: true,
  },
};
const family = createQwen3ModelFamily();
const tools = [
  { name: "bash", description: "Run a shell command in the repository.", parameters: { type: "object" } },
];

export interface Job {
  id: string;
  index: number;
  family: string;
  taskId: string;
  turns: number;
  seed: number;
}

/** Task families, submitted in dataset order (families in blocks): the skew static splits suffer from. */
export const FAMILIES = [
  { name: "swe", share: 0.25, systemWords: 1_800, turns: [20, 40] },
  { name: "code", share: 0.25, systemWords: 1_000, turns: [6, 14] },
  { name: "math", share: 0.5, systemWords: 600, turns: [2, 4] },
] as const;

function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return ((state ^ (state >>> 13)) >>> 0) / 4_294_967_296;
  };
}

function words(random: () => number, count: number): string {
  const pool = [
    "repo",
    "test",
    "module",
    "config",
    "error",
    "trace",
    "value",
    "line",
    "patch",
    "build",
    "path",
  ];
  return Array.from({ length: count }, () => pool[Math.floor(random() * pool.length)]).join(" ");
}

export function buildWorkload(jobCount: number, seed: number): Job[] {
  const random = rng(seed);
  const jobs: Job[] = [];
  for (const fam of FAMILIES) {
    const groups = Math.round((jobCount * fam.share) / GROUP_SIZE);
    for (let g = 0; g < groups; g += 1) {
      for (let m = 0; m < GROUP_SIZE; m += 1) {
        const [min, max] = fam.turns;
        const turns = min + Math.floor(random() * (max - min + 1));
        jobs.push({
          id: `${fam.name}-${g}-${m}`,
          index: jobs.length,
          family: fam.name,
          taskId: `${fam.name}-${g}`,
          turns,
          seed: jobs.length,
        });
      }
    }
  }
  return jobs;
}

const systemPrompts = new Map<string, string>(
  FAMILIES.map((fam, i) => [fam.name, `You are a ${fam.name} agent. ${words(rng(99 + i), fam.systemWords)}`]),
);

export type Generate = (request: GenerateRequest, job: Job) => Promise<GenerateResult>;

/** Where prompts went and what came back, for the single-backend ideal hit rate. */
export interface PromptTrace {
  record(ids: readonly number[], length: number, isLookup: boolean): void;
}

/** Runs one trajectory turn by turn; the first failed turn fails it (the error propagates). */
export async function runJob(job: Job, generate: Generate, trace: PromptTrace | null): Promise<void> {
  const conversation = TokenConversation.start(
    family,
    [
      { role: "system", content: systemPrompts.get(job.family) ?? "" },
      { role: "user", content: `task_id: ${job.taskId}\nSolve the task.` },
    ],
    { tools },
  );
  const random = rng(job.seed * 7 + 1);
  for (let turn = 0; turn < job.turns; turn += 1) {
    const promptIds = conversation.promptIds;
    trace?.record(promptIds, promptIds.length, true);
    const result = await generate(
      { jobId: job.id, promptIds, sampling: { maxTokens: 512, seed: job.seed } },
      job,
    );
    trace?.record(promptIds, promptIds.length + result.responseIds.length, false);
    conversation.appendResponse(result.responseIds, result.logprobs);
    conversation.appendMessages([{ role: "tool", content: words(random, 80 + Math.floor(random() * 170)) }]);
  }
}
