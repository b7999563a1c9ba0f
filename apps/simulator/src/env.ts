import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { parseArgs } from "node:util";
import { formatIssueList, SIMULATED_MODEL_NAME } from "@raas/shared";
import { z } from "zod";
import { DEFAULT_CACHE_BLOCKS } from "./cache/block-prefix-cache";
import { DEFAULT_DECODE_MS_PER_TOKEN, DEFAULT_PREFILL_MS_PER_TOKEN } from "./engine/latency-model";
import { DEFAULT_MAX_CONCURRENCY } from "./engine/simulated-model";
import { ZPolicyConfig } from "./policies/policy-config.schema";
import type { SimulatorModelFamilyConfig } from "./simulator-model-family";
import type { SimulatorOptions } from "./start-simulator";

const ZSimulatorEnv = z.object({
  port: z.coerce.number().int().min(0).max(65_535).default(8000),
  host: z.string().min(1).default("127.0.0.1"),
  policy: z.enum(["scripted", "success-probability", "malformed", "judge"]).default("scripted"),
  policyFile: z.string().optional(),
  seed: z.coerce.number().int().default(0),
  modelName: z.string().min(1).default(SIMULATED_MODEL_NAME),
  maxConcurrency: z.coerce.number().int().positive().default(DEFAULT_MAX_CONCURRENCY),
  cacheBlocks: z.coerce.number().int().positive().default(DEFAULT_CACHE_BLOCKS),
  prefillMsPerToken: z.coerce.number().nonnegative().default(DEFAULT_PREFILL_MS_PER_TOKEN),
  decodeMsPerToken: z.coerce.number().nonnegative().default(DEFAULT_DECODE_MS_PER_TOKEN),
  modelFamily: z
    .enum(["qwen3", "gpt-oss"], { error: "expected qwen3 or gpt-oss (or give --tokenizer-dir instead)" })
    .optional(),
  tokenizerDir: z
    .string()
    .refine(isAbsolute, { error: "expected an absolute path" })
    .refine((dir) => existsSync(join(dir, "tokenizer.json")), {
      error: "no tokenizer.json in this directory (expected a Hugging Face tokenizer directory)",
    })
    .optional(),
});

export const SIMULATOR_USAGE = `usage: npm run simulator -- [options]
  --port <n>                   TCP port (default 8000; env SIMULATOR_PORT)
  --host <addr>                bind address (default 127.0.0.1; env SIMULATOR_HOST)
  --policy <kind>              scripted | success-probability | malformed | judge (default scripted)
  --policy-file <path>         JSON policy config (its "kind" wins over --policy)
  --seed <n>                   seed of all random draws; requests without a seed sample afresh
                               from a stream it starts (default 0)
  --model-name <name>          reported model name (default ${SIMULATED_MODEL_NAME})
  --max-concurrency <n>        batch slots (default ${DEFAULT_MAX_CONCURRENCY})
  --cache-blocks <n>           prefix-cache capacity in 16-token blocks (default ${DEFAULT_CACHE_BLOCKS})
  --prefill-ms-per-token <ms>  prefill time per uncached prompt token (default ${DEFAULT_PREFILL_MS_PER_TOKEN})
  --decode-ms-per-token <ms>   decode time per generated token (default ${DEFAULT_DECODE_MS_PER_TOKEN})
  --model-family <name>        qwen3 | gpt-oss: a built-in model family (default qwen3)
  --tokenizer-dir <path>       a model's tokenizer directory (tokenizer.json, tokenizer_config.json):
                               serve any family with its own chat template; not with --model-family`;

/**
 * Reads the simulator's configuration once: CLI flags first, then `SIMULATOR_*` environment
 * variables, then defaults. Throws an error with a readable list of bad fields.
 */
export function readSimulatorConfig(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): SimulatorOptions & { modelFamily: SimulatorModelFamilyConfig } {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: "string" },
      host: { type: "string" },
      policy: { type: "string" },
      "policy-file": { type: "string" },
      seed: { type: "string" },
      "model-name": { type: "string" },
      "max-concurrency": { type: "string" },
      "cache-blocks": { type: "string" },
      "prefill-ms-per-token": { type: "string" },
      "decode-ms-per-token": { type: "string" },
      "model-family": { type: "string" },
      "tokenizer-dir": { type: "string" },
    },
    strict: true,
  });
  const parsed = ZSimulatorEnv.safeParse({
    port: values.port ?? env.SIMULATOR_PORT,
    host: values.host ?? env.SIMULATOR_HOST,
    policy: values.policy ?? env.SIMULATOR_POLICY,
    policyFile: values["policy-file"] ?? env.SIMULATOR_POLICY_FILE,
    seed: values.seed ?? env.SIMULATOR_SEED,
    modelName: values["model-name"] ?? env.SIMULATOR_MODEL_NAME,
    maxConcurrency: values["max-concurrency"] ?? env.SIMULATOR_MAX_CONCURRENCY,
    cacheBlocks: values["cache-blocks"] ?? env.SIMULATOR_CACHE_BLOCKS,
    prefillMsPerToken: values["prefill-ms-per-token"] ?? env.SIMULATOR_PREFILL_MS_PER_TOKEN,
    decodeMsPerToken: values["decode-ms-per-token"] ?? env.SIMULATOR_DECODE_MS_PER_TOKEN,
    modelFamily: values["model-family"] ?? env.SIMULATOR_MODEL_FAMILY,
    tokenizerDir: values["tokenizer-dir"] ?? env.SIMULATOR_TOKENIZER_DIR,
  });
  if (!parsed.success) {
    const problems = formatIssueList(parsed.error.issues, { root: "configuration" }).map(
      (line) => `  --${line}`,
    );
    throw new Error(`invalid simulator configuration:\n${problems.join("\n")}`);
  }
  const config = parsed.data;
  if (config.modelFamily !== undefined && config.tokenizerDir !== undefined) {
    throw new Error(
      "invalid simulator configuration:\n  --model-family: give it or --tokenizer-dir, not both (the directory's own template is the family)",
    );
  }
  const policy = config.policyFile
    ? ZPolicyConfig.parse(JSON.parse(readFileSync(config.policyFile, "utf8")))
    : ZPolicyConfig.parse({ kind: config.policy });
  return {
    port: config.port,
    host: config.host,
    policy,
    seed: config.seed,
    modelName: config.modelName,
    maxConcurrency: config.maxConcurrency,
    cache: { capacityBlocks: config.cacheBlocks },
    latency: { prefillMsPerToken: config.prefillMsPerToken, decodeMsPerToken: config.decodeMsPerToken },
    modelFamily: config.tokenizerDir
      ? { kind: "tokenizer-dir", directory: config.tokenizerDir }
      : { kind: config.modelFamily ?? "qwen3" },
  };
}
