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
    const factory = new PrismaPGlite(new PGlite());
    return {
      provider: factory.provider,
      adapterName: factory.adapterName,
      connect: () => factory.connect(),
      // The schema engine replays each committed migration on the shadow database as one
      // `executeRaw` without parameters; PGlite prepares statements, which refuses a script of
      // several. Such a call runs through `exec` (the simple protocol), as `pg` would.
      async connectToShadowDb() {
        const shadow = new PGlite();
        const adapter = await new PrismaPGlite(shadow).connect();
        const executeRaw = adapter.executeRaw.bind(adapter);
        adapter.executeRaw = async (query) => {
          if (query.args.length > 0) return executeRaw(query);
          await shadow.exec(query.sql);
          return 0;
        };
        return adapter;
      },
    };
  },
} satisfies PrismaConfig;
