import type { TStepTask } from "@raas/shared";
import { type CurriculumTracker, taskSamplingOf } from "../curriculum/curriculum-tracker";
import type { StepState } from "./step-progress";
import { taskAt } from "./task-draw";

/**
 * The step's next task, each call one more (null once its source has no more, or for a step with
 * no tasks to draw): from the curriculum for adaptive sampling, else in the source's order
 * (datasets cycle, optionally shuffled). Advances the step's `nextTaskIndex`.
 */
export function stepTaskDrawer(
  state: StepState,
  tasks: readonly TStepTask[] | null,
  curriculum: Pick<CurriculumTracker, "draw">,
): () => TStepTask | null {
  return () => {
    if (!tasks) return null;
    const { step } = state;
    if (taskSamplingOf(step).policy === "adaptive") {
      const drawn = curriculum.draw(state, tasks);
      if (drawn) step.nextTaskIndex += 1;
      return drawn;
    }
    const task = taskAt(tasks, step.nextTaskIndex, {
      cycle: step.request.tasks.type === "dataset",
      shuffleSeed: step.request.shuffleSeed,
    });
    if (task) step.nextTaskIndex += 1;
    return task;
  };
}
