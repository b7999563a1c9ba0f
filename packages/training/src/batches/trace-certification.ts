import { buildGatewayTraces, type GatewayCallStore } from "@raas/engine";

/** Whether a job's training traces are token-exact, for steps that take certified traces only. */
export interface TraceCertifier {
  /** True or false from the job's certificate; null when the job has none (no gateway call). */
  isCertified(jobId: string): Promise<boolean | null>;
}

/** Certifies from the inference gateway's recorded calls (the certificate of `buildGatewayTraces`). */
export function gatewayTraceCertifier(calls: GatewayCallStore): TraceCertifier {
  return {
    async isCertified(jobId) {
      const recorded = await calls.listCalls(jobId);
      if (recorded.length === 0) return null;
      return buildGatewayTraces(recorded).certificate.isCertified;
    },
  };
}

/**
 * Whether a finished member may be handed out under the step's `requireCertifiedTraces` (pure):
 * only a certificate that is present and not clean excludes it.
 */
export function isExcludedAsUncertified(
  requireCertifiedTraces: boolean,
  tracesCertified: boolean | null,
): boolean {
  return requireCertifiedTraces && tracesCertified === false;
}
