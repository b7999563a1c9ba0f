import { backendsRouter } from "./routers/backends/backends.router";
import { benchmarksRouter } from "./routers/benchmarks/benchmarks.router";
import { datasetsRouter } from "./routers/datasets/datasets.router";
import { environmentsRouter } from "./routers/environments/environments.router";
import { imagesRouter } from "./routers/images/images.router";
import { jobsRouter } from "./routers/jobs/jobs.router";
import { policyRouter } from "./routers/policy/policy.router";
import { runsRouter } from "./routers/runs/runs.router";
import { sandboxesRouter } from "./routers/sandboxes/sandboxes.router";
import { stepsRouter } from "./routers/steps/steps.router";
import { systemRouter } from "./routers/system/system.router";
import { tokensRouter } from "./routers/tokens/tokens.router";
import { workersRouter } from "./routers/workers/workers.router";
import { createCallerFactory, router } from "./trpc";

export const appRouter = router({
  jobs: jobsRouter,
  system: systemRouter,
  backends: backendsRouter,
  benchmarks: benchmarksRouter,
  sandboxes: sandboxesRouter,
  workers: workersRouter,
  images: imagesRouter,
  runs: runsRouter,
  steps: stepsRouter,
  policy: policyRouter,
  datasets: datasetsRouter,
  environments: environmentsRouter,
  tokens: tokensRouter,
});

/** The router's type, for `@trpc/client`: `createTRPCClient<AppRouter>(…)`. */
export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
