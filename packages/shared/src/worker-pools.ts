import { z } from "zod";
import { STAGES, type TStage } from "./stage";

/** Most slots one stage pool of one process may have (as `RAAS_*_CONCURRENCY`). */
const MAX_POOL_CONCURRENCY = 100_000;

/**
 * `RAAS_WORKER_POOLS` / `RAAS_SERVER_POOLS` as an env.ts field: which stage pools a process runs
 * and their concurrency, `init=16,run=64,eval=16` — any subset; a stage not named runs no pool
 * here (concurrency 0). `0` or `none` runs no pool at all (an API-only server). Unset: undefined,
 * so the app applies its own default. Each bad entry is an issue naming it.
 */
export const ZWorkerPoolsVariable = z
  .string()
  .optional()
  .transform((text, ctx): Record<TStage, number> | undefined => {
    if (text === undefined) return undefined;
    const pools: Record<TStage, number> = { init: 0, run: 0, eval: 0 };
    const trimmed = text.trim().toLowerCase();
    if (trimmed === "0" || trimmed === "none") return pools;
    const seen = new Set<string>();
    for (const raw of trimmed.split(",")) {
      const entry = raw.trim();
      if (entry === "") continue;
      const match = /^([a-z]+)\s*=\s*(\d+)$/.exec(entry);
      const stage = match?.[1] as TStage | undefined;
      if (!match || !stage || !STAGES.includes(stage)) {
        ctx.addIssue({
          code: "custom",
          message: `"${entry.slice(0, 80)}": expected stage=concurrency with stage init, run or eval (e.g. init=16,run=64,eval=16), or none`,
        });
        continue;
      }
      const concurrency = Number(match[2]);
      if (seen.has(stage)) ctx.addIssue({ code: "custom", message: `${stage} is named twice` });
      else if (concurrency > MAX_POOL_CONCURRENCY)
        ctx.addIssue({
          code: "custom",
          message: `${stage}=${concurrency}: expected at most ${MAX_POOL_CONCURRENCY}`,
        });
      seen.add(stage);
      pools[stage] = concurrency;
    }
    if (seen.size === 0) ctx.addIssue({ code: "custom", message: "names no pool; write none for no pools" });
    return pools;
  });
