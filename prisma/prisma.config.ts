// Prisma CLI configuration (development time only: generate and migration authoring).
// Runs fully offline: the JS schema engine ("engine: js") talks to an in-memory PGlite through
// its driver adapter, so no native engine binary is downloaded. Run time never loads this file;
// packages/db applies the committed migration SQL itself (packages/db/README.md).
import path from "node:path";
import type { PrismaConfig } from "prisma";

export default {
  experimental: { adapter: true },
  engine: "js",
  schema: path.join(import.meta.dirname, "schema.prisma"),
  migrations: { path: path.join(import.meta.dirname, "migrations") },
  async adapter() {
    const { PGlite } = await import("@electric-sql/pglite");
    const { PrismaPGlite } = await import("pglite-prisma-adapter");
    return new PrismaPGlite(new PGlite());
  },
} satisfies PrismaConfig;
