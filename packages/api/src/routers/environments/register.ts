import { isAbsolute } from "node:path";
import { requestFailure } from "@raas/shared";
import { z } from "zod";
import { adminProcedure } from "../../trpc";
import { ZEnvironmentName, ZEnvironmentView } from "./environment.schema";
import { requireEnvironments } from "./require-environments";

const ZRegisterEnvironmentRequest = z
  .object({
    path: z
      .string({ error: "expected path, the environment's directory on the server (string)" })
      .min(1)
      .max(4_096)
      .refine((path) => isAbsolute(path), { error: "path must be an absolute directory path on the server" })
      .describe(
        "The environment's directory on the server (absolute): a Harbor task directory or dataset, a reward-fn environment or a judge environment.",
      ),
    name: ZEnvironmentName.optional().describe(
      "The name runs reference it by. Default: the environment's own (its manifest's, or the directory's).",
    ),
    kind: z
      .enum(["harbor", "reward-fn", "judge"], { error: "kind must be harbor, reward-fn or judge" })
      .optional()
      .describe("The kind the directory must hold; read from the directory when omitted."),
  })
  .strict()
  .meta({ description: "An environment directory to register." });

const ZRegisterEnvironmentResponse = z
  .object({
    environment: ZEnvironmentView,
    created: z.boolean().describe("False when an environment of this name existed and was updated."),
  })
  .meta({ description: "The registered environment, and whether this call created it." });

/**
 * Registers an environment directory on the server under a name: the directory is read whole
 * (every task validated) and its kind and task count stored. Registering a name again updates it
 * (its oracle check is kept while the directory and kind stay the same). Admin: it reads the
 * server's file system.
 */
export const register = adminProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/environments",
      operationId: "registerEnvironment",
      summary:
        "Register an environment directory on the server by name, with its kind and task count (admin).",
      description:
        "Reads the directory whole (a Harbor task directory or dataset, a Python reward-function environment, or an LLM-judge environment): a missing or malformed part is a 400 naming the file and the field, and nothing is stored. A name taken by a shipped dataset is a 409. Registering a name again updates it (200, `created: false`); its oracle check is kept while the directory and kind stay the same. 503 when the server has no environment registry.",
      errors: ["CONFLICT", "UNAVAILABLE"],
      successStatus: "created",
      example: { path: "/srv/raas/environments/math-verify", name: "math-verify" },
    },
  })
  .input(ZRegisterEnvironmentRequest)
  .output(ZRegisterEnvironmentResponse)
  .mutation(async ({ ctx, input }) => {
    const environments = requireEnvironments(ctx);
    const inspected = await environments.inspect(input.path);
    if (input.kind !== undefined && inspected.kind !== input.kind)
      throw requestFailure(
        "VALIDATION_FAILED",
        `${input.path}: kind: the directory holds a ${inspected.kind} environment, not ${input.kind}`,
        { details: { file: input.path, field: "kind" } },
      );
    const name = input.name ?? ZEnvironmentName.safeParse(inspected.name).data;
    if (name === undefined)
      throw requestFailure(
        "VALIDATION_FAILED",
        `name: the environment's own name "${inspected.name}" cannot name it (1-100 letters, digits or _ . -); give one`,
      );
    if ((await environments.reservedNames()).includes(name))
      throw requestFailure(
        "CONFLICT",
        `"${name}" is a dataset the server ships, so an environment cannot take that name; give another`,
        { details: { name } },
      );
    const existing = await environments.store.get(name);
    const environment = await environments.store.save(
      {
        name,
        kind: inspected.kind,
        path: input.path,
        description: inspected.description,
        taskCount: inspected.taskCount,
      },
      Date.now(),
    );
    ctx.logger.info(
      { name, kind: environment.kind, path: environment.path, tasks: environment.taskCount },
      existing ? "environment updated" : "environment registered",
    );
    return { environment, created: existing === null };
  });
