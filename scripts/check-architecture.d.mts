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
/** The most words ARCHITECTURE.md may have outside fenced blocks. */
export const MAX_WORDS: number;
/** Words (with a letter or digit) outside fenced blocks. */
export function proseWords(markdown: string): number;
