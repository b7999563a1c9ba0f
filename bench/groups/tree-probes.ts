// Probes of the groups bench's base directory and template trees (bench/groups.bench.ts).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The file system type of `dir` (`tmpfs`, `ext2/ext3` for ext4, …), as `stat -f` names it. */
export function fileSystemOf(dir: string): string {
  try {
    return execFileSync("stat", ["-f", "-c", "%T", dir], { encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

/** Digest of a directory tree: every path, type, mode, owner, symlink target and file content. */
export function treeDigest(root: string): string {
  const hash = createHash("sha256");
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const stat = lstatSync(path);
      hash.update(`${rel}/${name}\0${stat.mode}\0${stat.uid}\0`);
      if (stat.isSymbolicLink()) hash.update(readlinkSync(path));
      else if (stat.isDirectory()) walk(path, `${rel}/${name}`);
      else hash.update(readFileSync(path));
    }
  };
  walk(root, "");
  return hash.digest("hex");
}

/** Whether `cp --reflink=always` works in `dir` (copies then share blocks) or copies are plain. */
export function cloneMode(dir: string): "reflink" | "copy" {
  const source = join(dir, "reflink-probe");
  writeFileSync(source, "probe");
  try {
    execFileSync("cp", ["--reflink=always", source, `${source}.clone`], { stdio: "ignore" });
    return "reflink";
  } catch {
    return "copy";
  } finally {
    rmSync(source, { force: true });
    rmSync(`${source}.clone`, { force: true });
  }
}
