export interface Workspace {
  /** `packages/<name>` or `apps/<name>`. */
  path: string;
  /** Its layer in scripts/layers.mjs. */
  layer: number;
}
export function listWorkspaces(root: string): Workspace[];
export function findArchitectureProblems(
  markdown: string,
  workspaces: Workspace[],
  exists: (path: string) => boolean,
): string[];
