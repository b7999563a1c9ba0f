import { DEFAULT_POLICY_ID, hasControlCharacter, requestFailure, ZPolicyId } from "@raas/shared";
import { z } from "zod";
import { adminProcedure } from "../../trpc";
import { ZBackendBaseUrl, ZBackendId, ZBackendKind, ZBackendView, ZWeightVersion } from "./backend.schema";
import { requireBackends } from "./require-backends";

const ZRegisterBackendRequest = z
  .object({
    id: ZBackendId.optional().describe(
      "Unique id; registering a known id updates that backend. Default: the URL's `host:port`.",
    ),
    kind: ZBackendKind.default("vllm"),
    baseUrl: ZBackendBaseUrl.describe(
      "Base URL such as `http://gpu-3:8000` (http or https, no `user:password@`, no query).",
    ),
    modelName: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .refine((value) => !hasControlCharacter(value), { error: "must not contain control characters" })
      .optional()
      .describe("Served model name (sent as `model`). Default: the server's default model."),
    weightVersion: ZWeightVersion.optional().describe(
      "Version of the weights it serves. Default null (unknown).",
    ),
    maxConcurrency: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .optional()
      .describe("Requests the backend runs at once (1 to 100_000). Default 64."),
    policyId: ZPolicyId.optional().describe(
      `The policy whose weights it serves: only that policy's jobs (its runs') are routed to it, and that policy's weight version is stamped on it. Default \`${DEFAULT_POLICY_ID}\`.`,
    ),
  })
  .strict()
  .meta({ description: "An inference backend to add (or update, when its id is known)." });
const ZRegisterBackendResponse = z
  .object({
    backend: ZBackendView,
    created: z.boolean().describe("False when the id was known and the registration updated it."),
  })
  .meta({ description: "The registered backend." });

/** Adds an inference backend at run time, or updates a known one. Admin only. */
export const register = adminProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/backends",
      operationId: "registerBackend",
      summary:
        "Register an inference backend (vllm, sglang, nemo-rl) at run time: 201 when created, 200 when the id existed and was updated (admin).",
      description:
        "Adds a backend to the routing pool; new jobs may go to it at once. Registering a known id updates its URL, model, weight version, concurrency and policy. A backend serves one policy (`policyId`, default the default policy): only that policy's jobs are routed to it. 503 when the server runs without an inference pool.",
      successStatus: "created",
      errors: ["UNAVAILABLE"],
      example: {
        kind: "vllm",
        baseUrl: "http://gpu-3:8000",
        modelName: "Qwen/Qwen3-8B",
        weightVersion: "step-120",
      },
    },
  })
  .input(ZRegisterBackendRequest)
  .output(ZRegisterBackendResponse)
  .mutation(async ({ ctx, input }) => {
    const backends = requireBackends(ctx);
    const modelName = input.modelName ?? backends.defaultModelName;
    if (modelName === undefined) {
      throw requestFailure("VALIDATION_FAILED", "modelName: required, this server has no default model name");
    }
    const id = input.id ?? new URL(input.baseUrl).host;
    const { backend, isCreated } = await backends.registry.registerBackend({
      id,
      kind: input.kind,
      baseUrl: input.baseUrl,
      modelName,
      ...(input.weightVersion !== undefined ? { weightVersion: input.weightVersion } : {}),
      ...(input.maxConcurrency !== undefined ? { maxConcurrency: input.maxConcurrency } : {}),
      ...(input.policyId !== undefined ? { policyId: input.policyId } : {}),
    });
    ctx.logger.info(
      {
        backendId: id,
        kind: input.kind,
        baseUrl: input.baseUrl,
        modelName,
        policyId: backend.policyId,
        isCreated,
      },
      isCreated ? "backend registered" : "backend updated",
    );
    return { backend, created: isCreated };
  });
