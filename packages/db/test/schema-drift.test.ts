import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { migrate, openDatabase } from "../src/index";

const SCHEMA_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../prisma/schema.prisma",
);

/** Column type PostgreSQL reports for each Prisma scalar the schema uses (no @db attributes). */
const PG_TYPE: Record<string, string> = {
  String: "text",
  Int: "integer",
  BigInt: "bigint",
  Float: "double precision",
  Boolean: "boolean",
  Json: "jsonb",
  Bytes: "bytea",
};

interface Column {
  type: string;
  nullable: boolean;
}

/** Scalar columns per table as `schema.prisma` declares them (relation fields skipped). */
function columnsFromSchema(text: string): Map<string, Map<string, Column>> {
  const tables = new Map<string, Map<string, Column>>();
  for (const block of text.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)) {
    const [, model = "", body = ""] = block;
    const columns = new Map<string, Column>();
    for (const line of body.split("\n")) {
      const field = /^\s+(\w+)\s+(\w+)(\?|\[\])?(.*)$/.exec(line);
      if (!field) continue;
      const [, name = "", type = "", modifier, rest = ""] = field;
      const pgType = PG_TYPE[type];
      if (pgType === undefined) continue; // a relation to another model
      const mapped = /@map\("([^"]+)"\)/.exec(rest)?.[1] ?? name;
      // Prisma creates a scalar list as a nullable array column (`TEXT[]`).
      const isList = modifier === "[]";
      columns.set(mapped, { type: isList ? "ARRAY" : pgType, nullable: modifier === "?" || isList });
    }
    const table = /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? model;
    tables.set(table, columns);
  }
  return tables;
}

describe("schema.prisma and the migrations agree", () => {
  it("every table and column the migrations create is declared with the same type and nullability, and vice versa", async () => {
    const declared = columnsFromSchema(await readFile(SCHEMA_FILE, "utf8"));
    expect(declared.size).toBeGreaterThan(10);
    const database = await openDatabase({ dataDir: "memory://" });
    try {
      await migrate(database.migrationTarget);
      const rows = await database.sql.query<{
        table_name: string;
        column_name: string;
        data_type: string;
        is_nullable: string;
      }>(
        `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
         WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
        [],
      );
      const migrated = new Map<string, Map<string, Column>>();
      for (const row of rows) {
        const table = migrated.get(row.table_name) ?? new Map<string, Column>();
        table.set(row.column_name, { type: row.data_type, nullable: row.is_nullable === "YES" });
        migrated.set(row.table_name, table);
      }
      const describe = (tables: Map<string, Map<string, Column>>) =>
        Object.fromEntries(
          [...tables]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([table, columns]) => [
              table,
              Object.fromEntries(
                [...columns]
                  .sort(([a], [b]) => a.localeCompare(b))
                  .map(([name, column]) => [name, `${column.type}${column.nullable ? "?" : ""}`]),
              ),
            ]),
        );
      expect(describe(migrated)).toEqual(describe(declared));
    } finally {
      await database.close();
    }
  });
});
