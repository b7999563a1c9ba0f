export { ZCanaryCheck } from "./canary.schema";
export {
  type CanaryCheck,
  isTampered,
  type ReportedOutcome,
} from "./canary.types";
export {
  type CanaryHost,
  type CanaryPlan,
  planCanaries,
  plantCanaries,
} from "./canary-plan";
export { checkCanaries } from "./canary-verdict";
export { tamperedFailure } from "./tampered-failure";
