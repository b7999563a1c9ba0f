/** A column written by a bulk statement, with the SQL type its parameters are cast to. */
export interface ColumnSpec {
  name: string;
  type: "text" | "int4" | "float8" | "bool" | "jsonb" | "bytea";
}

export interface Statement {
  sql: string;
  params: unknown[];
}

/** PostgreSQL allows 65 535 parameters per statement; stay well below. */
const MAX_PARAMS = 30_000;

/** How many rows of `columnCount` columns fit in one statement. */
export function rowsPerStatement(columnCount: number): number {
  return Math.max(1, Math.floor(MAX_PARAMS / columnCount));
}

/**
 * A JSON value as a parameter. Sent as text and cast to jsonb in SQL, because the drivers differ:
 * `pg` turns JS arrays into PostgreSQL array literals, PGlite stringifies objects itself.
 */
export function jsonParam(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/**
 * Bytes as a parameter: `\x` and their hex, text that the statement's `::text::bytea` cast reads
 * back exactly. Both drivers take a Buffer too, but PGlite hex-encodes it a byte at a time in JS
 * (a 20k-token prompt's write took 34 ms on the server's thread, 14 ms so), where Buffer's is native.
 */
export function byteaParam(bytes: Uint8Array): string {
  return `\\x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`;
}

/** Bytes read as `encode(column, 'hex')` (PGlite parses a bytea column a byte at a time in JS). */
export function bytesFromHex(hex: string): Uint8Array {
  return Buffer.from(hex, "hex");
}

function placeholder(index: number, column: ColumnSpec): string {
  // jsonb and bytea travel as text (see jsonParam, byteaParam: a parameter typed bytea is one
  // PGlite serializes itself); every other parameter is cast to its column's type so VALUES lists
  // get the right types regardless of driver inference.
  return column.type === "jsonb" || column.type === "bytea"
    ? `$${index}::text::${column.type}`
    : `$${index}::${column.type}`;
}

function valuesList(
  columns: readonly ColumnSpec[],
  rows: readonly (readonly unknown[])[],
  params: unknown[],
): string {
  const tuples: string[] = [];
  for (const row of rows) {
    const cells: string[] = [];
    for (let c = 0; c < columns.length; c += 1) {
      params.push(row[c] ?? null);
      cells.push(placeholder(params.length, columns[c] as ColumnSpec));
    }
    tuples.push(`(${cells.join(",")})`);
  }
  return tuples.join(",");
}

/** `INSERT INTO table (…) VALUES (…),(…) <onConflict>` for rows ordered like `columns`. */
export function buildInsert(
  table: string,
  columns: readonly ColumnSpec[],
  rows: readonly (readonly unknown[])[],
  onConflict = "",
): Statement {
  const params: unknown[] = [];
  const values = valuesList(columns, rows, params);
  const names = columns.map((column) => `"${column.name}"`).join(",");
  return { sql: `INSERT INTO "${table}" (${names}) VALUES ${values} ${onConflict}`.trimEnd(), params };
}

function unnestSource(
  columns: readonly ColumnSpec[],
  rows: readonly (readonly unknown[])[],
  params: unknown[],
): string {
  const arrays: unknown[][] = columns.map(() => new Array(rows.length));
  for (let r = 0; r < rows.length; r += 1) {
    const row = rows[r] as readonly unknown[];
    for (let c = 0; c < columns.length; c += 1) (arrays[c] as unknown[])[r] = row[c] ?? null;
  }
  const sources = columns.map((column, c) => {
    params.push(arrays[c]);
    return `$${params.length}::${column.type === "jsonb" ? "text" : column.type}[]`;
  });
  const names = columns.map((column) => `"${column.name}"`).join(",");
  return `unnest(${sources.join(",")}) AS v(${names})`;
}

function selectList(columns: readonly ColumnSpec[]): string {
  return columns
    .map((column) => (column.type === "jsonb" ? `v."${column.name}"::jsonb` : `v."${column.name}"`))
    .join(",");
}

/**
 * `INSERT … SELECT … FROM unnest($1::type[], …)`: one array parameter per column however many
 * rows, which PostgreSQL parses and plans about twice as fast as a long VALUES list (no bytea
 * columns: array encoding of binary differs between drivers).
 */
export function buildUnnestInsert(
  table: string,
  columns: readonly ColumnSpec[],
  rows: readonly (readonly unknown[])[],
  onConflict = "",
): Statement {
  const params: unknown[] = [];
  const source = unnestSource(columns, rows, params);
  const names = columns.map((column) => `"${column.name}"`).join(",");
  return {
    sql: `INSERT INTO "${table}" (${names}) SELECT ${selectList(columns)} FROM ${source} ${onConflict}`.trimEnd(),
    params,
  };
}

/**
 * `UPDATE table AS t SET … FROM unnest(…) AS v WHERE t.key = v.key`: many rows, each with its own
 * values, in one statement. The first column is the key.
 */
export function buildUnnestUpdate(
  table: string,
  columns: readonly ColumnSpec[],
  rows: readonly (readonly unknown[])[],
): Statement {
  const [key, ...set] = columns;
  if (!key || set.length === 0) throw new Error("buildUnnestUpdate needs a key column and a column to set");
  const params: unknown[] = [];
  const source = unnestSource(columns, rows, params);
  const assignments = set
    .map((column) => `"${column.name}" = v."${column.name}"${column.type === "jsonb" ? "::jsonb" : ""}`)
    .join(", ");
  return {
    sql: `UPDATE "${table}" AS t SET ${assignments} FROM ${source} WHERE t."${key.name}" = v."${key.name}"`,
    params,
  };
}

/**
 * A batched compare-and-set: `UPDATE table AS t SET … FROM unnest(…) AS v WHERE t.key = v.key AND
 * t.guard = v.expected RETURNING t.key`. Columns: the key, then the guard's expected value (read
 * into no column), then the columns to set. The rows it returns are the winners.
 */
export function buildUnnestCompareAndSet(
  table: string,
  columns: readonly ColumnSpec[],
  rows: readonly (readonly unknown[])[],
  guard: string,
): Statement {
  const [key, expected, ...set] = columns;
  if (!key || !expected || set.length === 0) {
    throw new Error("buildUnnestCompareAndSet needs a key, an expected value and a column to set");
  }
  const params: unknown[] = [];
  const source = unnestSource(columns, rows, params);
  const assignments = set
    .map((column) => `"${column.name}" = v."${column.name}"${column.type === "jsonb" ? "::jsonb" : ""}`)
    .join(", ");
  return {
    sql: `UPDATE "${table}" AS t SET ${assignments} FROM ${source} WHERE t."${key.name}" = v."${key.name}" AND t."${guard}" = v."${expected.name}" RETURNING t."${key.name}" AS "key"`,
    params,
  };
}
