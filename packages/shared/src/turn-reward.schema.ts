import { z } from "zod";

/** Most per-turn rewards one verifier may attach to a trajectory. */
const MAX_TURN_REWARDS = 10_000;

/** Longest label of a turn reward, in characters. */
const MAX_TURN_REWARD_LABEL_CHARS = 200;

/**
 * One reward a verifier attached to one turn, as the verifier writes it (`reward.json`'s
 * `turn_rewards`, verify.py's `turn_rewards`) and as the job stores it. Strict: a misspelt key is
 * a verifier error, never a reward silently dropped.
 */
const ZTurnReward = z
  .object({
    turn: z
      .number()
      .int()
      .nonnegative()
      .describe("The turn's index (0 for the first model call), as in the trajectory's turns."),
    reward: z.number().describe("The reward of that turn (a finite number)."),
    label: z
      .string()
      .max(MAX_TURN_REWARD_LABEL_CHARS)
      .nullable()
      .default(null)
      .describe("What the reward is for (`found the bug`, …); null when the verifier gave none."),
  })
  .strict()
  .meta({ id: "TurnReward", description: "One reward a verifier attached to one turn." });
export type TTurnReward = z.output<typeof ZTurnReward>;

/** A verifier's per-turn rewards: at most `MAX_TURN_REWARDS` entries, several per turn allowed. */
export const ZTurnRewards = z.array(ZTurnReward).max(MAX_TURN_REWARDS);

const TURN_REWARD_SOURCES = ["verifier", "tool"] as const;

/**
 * A turn reward in an export: aligned to the turn (`turn`) and to its sampled tokens
 * (`tokens[start:end]`), so a trainer can place it on the turn's last token or spread it.
 */
export const ZExportedTurnReward = z
  .object({
    turn: z.number().int().nonnegative().describe("The turn's index (0 for the first model call)."),
    reward: z.number().describe("The reward attached to that turn."),
    source: z
      .enum(TURN_REWARD_SOURCES)
      .describe(
        "`verifier`: the task's verifier gave it at EVAL (`reward.json` / verify.py `turn_rewards`); `tool`: a tool result during RUN carried it (the call the turn made).",
      ),
    label: z
      .string()
      .nullable()
      .describe("What the reward is for: the verifier's label (null when it gave none), a tool's name."),
    toolCallIndex: z
      .number()
      .int()
      .nonnegative()
      .nullable()
      .describe("For a `tool` reward, the call's position within its turn; null for a verifier's."),
    start: z
      .number()
      .int()
      .nonnegative()
      .nullable()
      .describe(
        "Offset in `tokens` of the turn's first sampled token (its span's start); null when the turn is not in the exported stream (cut at a token break).",
      ),
    end: z
      .number()
      .int()
      .nonnegative()
      .nullable()
      .describe("Offset in `tokens` just past the turn's last sampled token (exclusive); null as `start`."),
  })
  .meta({
    id: "ExportedTurnReward",
    description: "A per-step reward, aligned to its turn and to that turn's sampled tokens `[start, end)`.",
  });
export type TExportedTurnReward = z.infer<typeof ZExportedTurnReward>;
