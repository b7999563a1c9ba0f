import { z } from "zod";
import { trainerProcedure } from "../../trpc";
import { ZEnvironmentName, ZEnvironmentResponse, ZOracleCheck } from "./environment.schema";
import { requireEnvironment, requireEnvironments } from "./require-environments";

const ZRecordOracleRequest = z
  .object({ name: ZEnvironmentName, oracle: ZOracleCheck })
  .strict()
  .meta({ description: "The environment and its oracle check." });

/** Stores an environment's oracle check (what `raas env verify <name>` sends). Trainer or admin. */
export const recordOracle = trainerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/environments/{name}/oracle",
      operationId: "recordEnvironmentOracle",
      summary: "Store an environment's oracle check, replacing the last one (trainer).",
      description:
        "`raas env verify <name>` runs the check where the environment's directory is and sends it here. 404 for an unknown name; 503 when the server has no environment registry.",
      errors: ["UNAVAILABLE"],
      example: {
        oracle: {
          checkedAtMs: 1_796_000_000_000,
          passed: 1,
          failed: 0,
          skipped: 0,
          rows: [
            {
              task: "math-verify-00",
              oracleReward: 1,
              noopReward: 0,
              verdict: "pass",
              reasons: [],
              seconds: 1.2,
            },
          ],
        },
      },
    },
  })
  .input(ZRecordOracleRequest)
  .output(ZEnvironmentResponse)
  .mutation(async ({ ctx, input }) => {
    const environments = requireEnvironments(ctx);
    await requireEnvironment(environments, input.name);
    await environments.store.recordOracle(input.name, input.oracle, Date.now());
    const { passed, failed, skipped } = input.oracle;
    ctx.logger.info({ name: input.name, passed, failed, skipped }, "environment oracle check recorded");
    return { environment: await requireEnvironment(environments, input.name) };
  });
