import { z } from "zod";
import {
  envManifestHead,
  ZEnvAgentSettings,
  ZEnvMcpTable,
  ZEnvRowId,
  ZRelativeFile,
} from "../base/environment-manifest.schema";

// `environment.toml` of a Python reward-function environment, with snake_case keys as Harbor's
// task.toml has them. Unknown keys are refused: a misspelt `exception_means_wrong` silently
// ignored would change which failures are trainable.

export const ZRewardEnvManifest = z
  .object({
    ...envManifestHead,
    verifier: z
      .object({
        file: ZRelativeFile.default("verify.py"),
        function: z
          .string()
          .regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, "a Python identifier")
          .default("compute_score"),
        time_limit_sec: z.number().positive().max(3_600).default(30),
        exception_means_wrong: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    agent: ZEnvAgentSettings,
    mcp: ZEnvMcpTable,
  })
  .strict();
export type TRewardEnvManifest = z.infer<typeof ZRewardEnvManifest>;

const ZMessage = z.object({ role: z.enum(["system", "user"]), content: z.string() }).loose();

/**
 * One dataset line, in veRL's shape: `prompt` (a string, or chat messages: system and one user),
 * `ground_truth` (or `reward_model.ground_truth`), optional `extra_info`, `data_source`, `id`.
 * Other keys (`ability`, …) are ignored.
 */
export const ZRewardEnvRow = z
  .object({
    id: ZEnvRowId,
    prompt: z.union([
      z.string().min(1),
      z
        .array(ZMessage)
        .min(1)
        .refine(
          (messages) => messages.filter((m) => m.role === "user").length === 1,
          "chat messages with exactly one user message",
        ),
    ]),
    ground_truth: z.json().optional(),
    reward_model: z.object({ ground_truth: z.json().optional() }).loose().optional(),
    extra_info: z.record(z.string(), z.json()).nullable().optional(),
    data_source: z.string().min(1).max(200).optional(),
  })
  .loose()
  .refine((row) => row.ground_truth !== undefined || row.reward_model?.ground_truth !== undefined, {
    message: "ground_truth is missing (or reward_model.ground_truth, as veRL writes it)",
    path: ["ground_truth"],
  });
export type TRewardEnvRow = z.infer<typeof ZRewardEnvRow>;
