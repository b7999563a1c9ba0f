import type { EnvironmentStore } from "@raas/engine";
import type { TStepTask } from "@raas/shared";
import type { TaskCatalog } from "@raas/training";
import { environmentStepTasks, loadEnvironment } from "../oracle/environment-source";

/**
 * A task catalog of the given one's datasets and, under their names, the environments registered
 * with the service: a training step names either as `{ type: "dataset", dataset: <name> }`. A
 * dataset of the base catalog wins a name both have (registration refuses such names). An
 * environment's tasks are read from its directory when a step asks, so an edit on the server
 * reaches the next step; only environments whose kind the engine runs are listed.
 */
export function createEnvironmentTaskCatalog(options: {
  base: TaskCatalog;
  environments: Pick<EnvironmentStore, "get" | "list">;
  kinds: readonly string[];
}): TaskCatalog {
  const kinds = new Set(options.kinds);
  return {
    async list() {
      const [datasets, environments] = await Promise.all([options.base.list(), options.environments.list()]);
      const taken = new Set(datasets.map((dataset) => dataset.name));
      const registered = environments
        .filter((env) => kinds.has(env.kind) && !taken.has(env.name))
        .map((env) => ({ name: env.name, size: env.taskCount, kinds: [env.kind] }));
      return [...datasets, ...registered];
    },
    async tasks(name: string): Promise<readonly TStepTask[] | null> {
      const shipped = await options.base.tasks(name);
      if (shipped !== null) return shipped;
      const env = await options.environments.get(name);
      if (env === null || !kinds.has(env.kind)) return null;
      return environmentStepTasks(await loadEnvironment(env.path));
    },
  };
}
