// Applies pending migrations (the same code path `createJobStore` runs at start-up).
//   npm run db:migrate                                   → PGlite in ./.raas/pglite
//   npm run db:migrate -- /var/lib/raas/pglite           → PGlite in that directory
//   npm run db:migrate -- postgresql://postgres@127.0.0.1:5432/raas
//   npm run migrate -w @raas/db -- --database-url postgresql://… --schema raas
// (through the root `db:migrate`, npm swallows --flags; pass the location as a plain argument.)
// DATABASE_URL is used when no location is given (this is a command, not the library).
import { parseArgs } from "node:util";
import { type DbLogger, migrate, openDatabase } from "../src/index";

const { values, positionals } = parseArgs({
  allowPositionals: true,
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

const [location] = positionals;
const isUrl = location !== undefined && /^postgres(ql)?:\/\//.test(location);
const dataDir = values["data-dir"] ?? (isUrl ? undefined : location);
const databaseUrl =
  values["database-url"] ?? (isUrl ? location : dataDir === undefined ? process.env.DATABASE_URL : undefined);
const database = await openDatabase({
  ...(databaseUrl !== undefined && { databaseUrl }),
  ...(dataDir !== undefined && { dataDir }),
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
