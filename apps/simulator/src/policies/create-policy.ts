import { assertNever } from "@raas/shared";
import { HarnessAgnosticPolicy } from "./harness-agnostic-policy";
import { JudgePolicy } from "./judge-policy";
import { MalformedPolicy } from "./malformed-policy";
import type { SimulatorPolicy } from "./policy.types";
import { type TPolicyConfigInput, ZPolicyConfig } from "./policy-config.schema";
import { ScriptedPolicy } from "./scripted-policy";
import { SuccessProbabilityPolicy } from "./success-probability-policy";

/** Validates a policy config and builds the policy. Throws a zod error naming the bad field. */
export function createPolicy(input: TPolicyConfigInput): SimulatorPolicy {
  const config = ZPolicyConfig.parse(input);
  switch (config.kind) {
    case "scripted":
      return new ScriptedPolicy(config);
    case "harness-agnostic":
      return new HarnessAgnosticPolicy(config);
    case "success-probability":
      return new SuccessProbabilityPolicy(config);
    case "malformed":
      return new MalformedPolicy(config);
    case "judge":
      return new JudgePolicy(config);
    default:
      return assertNever(config, "policy kind");
  }
}
