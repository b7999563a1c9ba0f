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
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ["default"],
  },
});
