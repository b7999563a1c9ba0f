import { availableParallelism } from "node:os";
import { relative } from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Files that take longest (CI on 2 cores, slowest first). Without timings from an earlier run
 * (a clean clone has none) vitest starts the largest files first, so these small but slow ones
 * would start last and leave one worker idle while they finish: they go first instead.
 */
const SLOW_FILES = [
  "apps/server/test/distributed/fair-share-admission.test.ts",
  "apps/server/test/distributed/worker-kill-sandbox-records.test.ts",
  "apps/server/test/distributed/postgres-restart.test.ts",
  "packages/handlers/test/swe/swe-eval.test.ts",
  "apps/server/test/distributed/worker-kill.test.ts",
  "apps/server/test/distributed.test.ts",
  "apps/server/test/distributed/server-restart.test.ts",
  "apps/server/test/distributed/worker-drain.test.ts",
  "apps/server/test/distributed/sick-worker.test.ts",
];

class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const path = relative(spec.project.config.root, spec.moduleId);
      const isTimed = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`) !== undefined;
      const index = SLOW_FILES.indexOf(path);
      return isTimed || index < 0 ? SLOW_FILES.length : index;
    };
    // Array#sort is stable: every other file keeps the base order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  // Dashboard components render in tests through react-dom/server; its tsconfig keeps JSX for Next.
  oxc: { jsx: { runtime: "automatic" } },
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "packages/*/test/**/*.test.ts",
      "apps/*/src/**/*.test.ts",
      "apps/*/test/**/*.test.ts",
      "scripts/**/*.test.ts",
      "bench/**/*.test.ts",
    ],
    // The dashboard's server-side code (proxy, host check) is tested here; its pages by e2e/.
    exclude: ["**/node_modules/**", "apps/web/.next/**"],
    pool: "forks",
    // Most suites wait on sandboxes, servers and databases rather than compute, so two files at a
    // time even on 2 cores (vitest's default there is one): the suite runs in about half the time,
    // and every suite has to hold up under that load anyway.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 240_000,
    reporters: ["default"],
    sequence: { sequencer: SlowFirstSequencer },
  },
});
