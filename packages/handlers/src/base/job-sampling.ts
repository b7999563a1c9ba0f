import type { JobSampling } from "@raas/engine";
import type { AgentDefaults } from "./agent-handler.types";
import type { TAgentOverrides } from "./agent-payload.schema";

/**
 * The sampling settings a job's turns are generated with: the server's defaults, overridden field
 * by field by the job's (or its step's) `agent` settings. The agent loop and a harness's gateway
 * session both sample with these, whatever the model or the harness asks for.
 */
export function resolveJobSampling(defaults: AgentDefaults, overrides: TAgentOverrides = {}): JobSampling {
  const { temperature, topP, topK, seed, topLogprobs } = overrides;
  const given = Object.entries({ temperature, topP, topK, seed, topLogprobs }).filter(
    ([, value]) => value !== undefined,
  );
  return { ...defaults.sampling, ...Object.fromEntries(given) };
}
