import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** One committed migration: `prisma/migrations/<timestamp>_<name>/migration.sql`. */
export interface MigrationFile {
  /** The folder name, e.g. `20251130000000_init`; migrations apply in this name's order. */
  name: string;
  sql: string;
  /** SHA-256 (hex) of `migration.sql`, the same checksum `prisma migrate` records. */
  checksum: string;
}

/** `prisma/migrations` at the repository root, found relative to this file. */
export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(
  new URL("../../../../prisma/migrations", import.meta.url),
);

/** Reads every migration folder under `dir`, sorted by name. Folders without `migration.sql` are skipped. */
export async function readMigrationFiles(dir: string = DEFAULT_MIGRATIONS_DIR): Promise<MigrationFile[]> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new Error(`cannot read migrations directory ${dir}: ${(error as Error).message}`, { cause: error });
  }
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const files: MigrationFile[] = [];
  for (const name of names) {
    let sql: string;
    try {
      sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
    } catch {
      continue;
    }
    files.push({ name, sql, checksum: createHash("sha256").update(sql).digest("hex") });
  }
  if (files.length === 0) throw new Error(`no migrations found in ${dir}`);
  return files;
}
