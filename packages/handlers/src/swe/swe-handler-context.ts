import type { JobSandboxDefaults } from "../base/agent-handler.types";
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
  /** The instance's image; `defaults.image` (the job's or its run's) stands before the server's `image`. */
  imageOf(payload: TSwePayload, defaults: JobSandboxDefaults): ReturnType<typeof selectSweImage>;
  /** The evaluation options of a job: the server's, with the job's image before the server's. */
  evalOptionsOf(defaults: JobSandboxDefaults): SweHandlerConfig;
}

export function createSweHandlerContext(config: SweHandlerConfig): SweHandlerContext {
  const specOf = (payload: TSwePayload) => resolveSweSpec(payload.instance, config.repoSpecs, payload.spec);
  return {
    config,
    setupTimeoutMs: config.setupTimeoutMs ?? SWE_DEFAULTS.setupTimeoutMs,
    goodReferences: new Set<string>(),
    specOf,
    imageOf: (payload, defaults) =>
      selectSweImage(payload.instance, specOf(payload), {
        ...config,
        ...(defaults.image !== undefined && { image: defaults.image }),
      }),
    evalOptionsOf: (defaults) =>
      defaults.image === undefined ? config : { ...config, image: defaults.image },
  };
}
