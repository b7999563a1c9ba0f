import { accessSync, constants } from "node:fs";
import { join } from "node:path";

/**
 * Finds `name` on a colon-separated search path. The path is a parameter because this
 * package never reads the environment; a composition root passes its own PATH.
 */
export function findExecutable(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(":")) {
    if (dir.length === 0) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}
