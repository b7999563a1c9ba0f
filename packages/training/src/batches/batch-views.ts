import type { TGroup, TRun, TStep } from "@raas/shared";
import type { GroupRecord, RunRecord, StepRecord } from "../ports/batch-store.port";
import { stepFailureOf } from "./failure-budget";

/** The API's view of a stored run (internal fields dropped, copied so callers cannot mutate state). */
export function toRunView(run: RunRecord): TRun {
  const { taskCursors: _cursors, version: _version, ...view } = run;
  return structuredClone(view);
}

export function toStepView(step: StepRecord): TStep {
  const { request: _request, nextTaskIndex: _next, rewards: _rewards, version: _version, ...view } = step;
  return { ...structuredClone(view), failure: stepFailureOf(step) };
}

export function toGroupView(group: GroupRecord): TGroup {
  const { task: _task, carriedIntoGroupId: _into, version: _version, ...view } = group;
  return structuredClone(view);
}
