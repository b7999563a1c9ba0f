import { formatIssues, requestFailure, type SchemaIssue } from "@raas/shared";
import type { Prisma } from "../generated/client";

/** Where a stored JSON value sits: its table, column and the id of its row. */
export interface JsonColumnSite {
  table: string;
  column: string;
  rowId: string;
}

/** What `parseJsonColumn` needs of a schema: zod's `safeParse`. */
export interface ColumnSchema<T> {
  safeParse(
    value: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: readonly SchemaIssue[] } };
}

/**
 * A stored JSON column read through `schema` (parse, don't cast). The value was validated on the
 * way in, so a failure means the row was changed behind the store's back or by a migration gone
 * wrong: it throws INTERNAL naming the table, column and row, rather than handing the engine a
 * value of the wrong shape that breaks far from here.
 */
export function parseJsonColumn<T>(schema: ColumnSchema<T>, value: unknown, site: JsonColumnSite): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = formatIssues(parsed.error.issues, { prefix: [site.column] });
  throw requestFailure(
    "INTERNAL",
    `stored ${site.table}.${site.column} of row ${site.rowId} is malformed: ${issues}`,
    { details: { table: site.table, column: site.column, rowId: site.rowId } },
  );
}

/**
 * A plain-data value (the engine's records: objects, arrays, strings, numbers, booleans, null) as
 * Prisma's JSON input. Only the type changes: TypeScript interfaces carry no index signature, so
 * they are not `InputJsonValue` to the compiler, though they are to `JSON.stringify`.
 */
export function toJsonColumn(value: object): Prisma.InputJsonValue {
  return value as Prisma.InputJsonValue;
}
