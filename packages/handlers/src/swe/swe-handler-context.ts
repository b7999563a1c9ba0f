import type { SweHandlerConfig } from "./swe-handler";
import { selectSweImage } from "./swe-image";
import { SWE_DEFAULTS } from "./swe-options";
import type { TSwePayload } from "./swe-payload.schema";
import { resolveSweSpec } from "./swe-repo-spec";

/** What the `swe` handler's stages share: its config, defaults, and lookups per payload. */
export interface SweHandlerContext {
  readonly config: SweHandlerConfig;
  readonly setupTimeoutMs: number;
  /** Instances whose gold patch is known to run their listed tests (see `judgeListedTests`). */
  readonly goodReferences: Set<string>;
  specOf(payload: TSwePayload): ReturnType<typeof resolveSweSpec>;
  imageOf(payload: TSwePayload): ReturnType<typeof selectSweImage>;
}

export function createSweHandlerContext(config: SweHandlerConfig): SweHandlerContext {
  const specOf = (payload: TSwePayload) => resolveSweSpec(payload.instance, config.repoSpecs, payload.spec);
  return {
    config,
    setupTimeoutMs: config.setupTimeoutMs ?? SWE_DEFAULTS.setupTimeoutMs,
    goodReferences: new Set<string>(),
    specOf,
    imageOf: (payload) => selectSweImage(payload.instance, specOf(payload), config),
  };
}
