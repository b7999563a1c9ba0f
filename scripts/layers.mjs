// The dependency layers of the workspaces, shared by check-deps.mjs (which enforces them on
// imports) and check-architecture.mjs (which checks ARCHITECTURE.md's package table against them).
// A workspace may depend only on @raas/* workspaces of a lower layer.

/** Layers of packages/*; a package not listed is an adapter (2). Every app is layer 4. */
export const LAYERS = {
  shared: 0,
  engine: 1,
  training: 1.5,
  db: 2,
  sandbox: 2,
  inference: 2,
  handlers: 2,
  queue: 2,
  api: 3,
  compose: 3,
};

/** The layer of the workspace `<dir>/<name>` (dir: "packages" or "apps"). */
export function layerOf(dir, name) {
  return dir === "apps" ? 4 : (LAYERS[name] ?? 2);
}
