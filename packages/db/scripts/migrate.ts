// Applies pending migrations (the same code path `createJobStore` runs at start-up).
//   npm run db:migrate                                   → PGlite in ./.raas/pglite
//   npm run db:migrate -- --data-dir /var/lib/raas/pglite
//   npm run db:migrate -- --database-url postgresql://postgres@127.0.0.1:5432/raas [--schema raas]
// DATABASE_URL is used when --database-url is not given (this is a command, not the library).
import { parseArgs } from "node:util";
import { type DbLogger, migrate, openDatabase } from "../src/index";

const { values } = parseArgs({
  options: {
    "database-url": { type: "string" },
    "data-dir": { type: "string" },
    schema: { type: "string" },
  },
});

const logger: DbLogger = {
  debug: () => {},
  info: (fields, message) => console.log(`${message} ${JSON.stringify(fields)}`),
  warn: (fields, message) => console.warn(`warning: ${message} ${JSON.stringify(fields)}`),
};

const databaseUrl = values["database-url"] ?? process.env.DATABASE_URL;
const database = await openDatabase({
  ...(databaseUrl !== undefined && { databaseUrl }),
  ...(values["data-dir"] !== undefined && { dataDir: values["data-dir"] }),
  ...(values.schema !== undefined && { schema: values.schema }),
});
try {
  const result = await migrate(database.migrationTarget, { logger });
  console.log(
    `${database.description}: ${result.applied.length} applied, ${result.alreadyApplied.length} already applied`,
  );
} finally {
  await database.close();
}
