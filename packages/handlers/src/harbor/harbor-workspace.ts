import { posix } from "node:path";
import type { HostEnvironmentPlan } from "./harbor-dockerfile";
import { type HarborPathMap, rewriteHarborPaths } from "./harbor-paths";
import type { THarborFile } from "./harbor-task.schema";

/**
 * The workspace the Dockerfile's copies build from the build context (`environment/` without the
 * Dockerfile), as Docker would: a directory source gives its contents, a file source goes into a
 * directory destination (ending in `/`, the workdir itself, or one of several sources) or becomes
 * the destination. Throws naming the copy whose source the context lacks (a build that would fail).
 */
export function workspaceFilesOf(plan: HostEnvironmentPlan, context: readonly THarborFile[]): THarborFile[] {
  const out = new Map<string, THarborFile>();
  for (const copy of plan.copies) {
    const single = context.find((f) => f.path === copy.source);
    if (single !== undefined) {
      const intoDir = copy.isDirectoryDestination || copy.destination === "";
      const path = intoDir ? posix.join(copy.destination, posix.basename(single.path)) : copy.destination;
      out.set(path, { ...single, path });
      continue;
    }
    const prefix = copy.source === "" ? "" : `${copy.source}/`;
    const below = context.filter((f) => f.path.startsWith(prefix));
    if (below.length === 0) throw new Error(`COPY source ${copy.source || "."} is not in environment/`);
    for (const file of below) {
      const path = posix.join(copy.destination, file.path.slice(prefix.length));
      out.set(path, { ...file, path });
    }
  }
  return [...out.values()].sort((a, b) => a.path.localeCompare(b.path));
}

/** A file's bytes, its text rewritten by `map` (base64 files are left as they are). */
export function fileBytes(file: THarborFile, map: HarborPathMap): string | Uint8Array {
  return file.encoding === "base64"
    ? Buffer.from(file.content, "base64")
    : rewriteHarborPaths(file.content, map);
}
