import { RaasError } from "@raas/shared";
import { z } from "zod";
import { adminProcedure } from "../../trpc";
import { ZBackendBaseUrl, ZBackendId, ZBackendKind, ZBackendView, ZWeightVersion } from "./backend.schema";
import { requireBackends } from "./require-backends";

export const ZRegisterBackendRequest = z
  .object({
    /** Unique id; registering a known id updates that backend. Default: the URL's `host:port`. */
    id: ZBackendId.optional(),
    /** Wire protocol. Default `vllm` (OpenAI-compatible `/v1/completions`, also the simulator). */
    kind: ZBackendKind.default("vllm"),
    /** Base URL, e.g. `http://gpu-3:8000`. */
    baseUrl: ZBackendBaseUrl,
    /** Served model name (sent as `model`). Default: the server's default model. */
    modelName: z.string().trim().min(1).max(200).optional(),
    /** Version of the weights it serves. Default null (unknown). */
    weightVersion: ZWeightVersion.optional(),
    /** Requests the backend runs at once. Default 64. */
    maxConcurrency: z.number().int().min(1).max(100_000).optional(),
  })
  .strict();
export const ZRegisterBackendResponse = z.object({
  backend: ZBackendView,
  /** False when the id was known and the registration updated it. */
  created: z.boolean(),
});

/** Adds an inference backend at run time, or updates a known one. Admin only. */
export const register = adminProcedure
  .input(ZRegisterBackendRequest)
  .output(ZRegisterBackendResponse)
  .mutation(({ ctx, input }) => {
    const backends = requireBackends(ctx);
    const modelName = input.modelName ?? backends.defaultModelName;
    if (modelName === undefined) {
      throw new RaasError("VALIDATION_FAILED", "modelName: required, this server has no default model name");
    }
    const id = input.id ?? new URL(input.baseUrl).host;
    const { backend, isCreated } = backends.registry.registerBackend({
      id,
      kind: input.kind,
      baseUrl: input.baseUrl,
      modelName,
      ...(input.weightVersion !== undefined ? { weightVersion: input.weightVersion } : {}),
      ...(input.maxConcurrency !== undefined ? { maxConcurrency: input.maxConcurrency } : {}),
    });
    ctx.logger.info(
      { backendId: id, kind: input.kind, baseUrl: input.baseUrl, modelName, isCreated },
      isCreated ? "backend registered" : "backend updated",
    );
    return { backend, created: isCreated };
  });
