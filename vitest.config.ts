import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

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
    hookTimeout: 120_000,
    reporters: ["default"],
  },
});
