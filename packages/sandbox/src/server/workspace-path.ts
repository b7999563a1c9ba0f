import { existsSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";

export class PathOutsideWorkspaceError extends Error {
  override readonly name = "PathOutsideWorkspaceError";
}

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * Resolves `path` (absolute, or relative to the workspace) and proves it stays inside the
 * workspace both lexically and after following symlinks of its longest existing ancestor,
 * so neither `../` nor a planted symlink can reach outside.
 */
export function resolveInWorkspace(workspaceRoot: string, path: string): string {
  const root = realpathSync(workspaceRoot);
  const target = resolve(root, path);
  if (!isInside(root, target)) {
    throw new PathOutsideWorkspaceError(`path ${path} is outside the workspace ${workspaceRoot}`);
  }
  let existing = target;
  while (!existsSync(existing) && existing !== root) existing = dirname(existing);
  const real = realpathSync(existing);
  if (!isInside(root, real)) {
    throw new PathOutsideWorkspaceError(
      `path ${path} leaves the workspace ${workspaceRoot} through a symlink`,
    );
  }
  return existing === target ? real : resolve(real, relative(existing, target));
}
