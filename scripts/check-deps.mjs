// Dependency-direction check (part of `npm run check`):
//   shared ← engine ← training ← adapters (db, sandbox, inference, handlers, queue)
//          ← api, compose ← apps
//   (compose: the composition pieces the server and the worker share; it may not use api)
// - training (runs, steps, groups, curriculum, policy versions) is a layer of its own on top of
//   the engine: it uses only @raas/shared and the engine's public index, and the engine never
//   imports it (the job lifecycle knows no training); adapters may implement its ports (db keeps
//   the batch and curriculum stores, handlers the task catalog);
// - a workspace may depend only on @raas/* workspaces of a lower layer;
// - adapters do not know each other: an adapter depends on no other adapter (what two adapters
//   share belongs below them, in the engine's ports or @raas/shared); only its tests may use
//   another adapter (a devDependency), e.g. the handlers' tests run real bubblewrap sandboxes;
// - no cycles; no deep imports into another package's files; every @raas import is declared;
// - the engine and training import no adapter technology (Prisma, pg, Redis, node-pty, Next,
//   HTTP clients);
// - libraries (packages/*) never read process.env;
// - production code has no `as unknown as`: values of unknown shape (stored JSON, wire data) are
//   parsed with a schema, not cast (tests may keep theirs);
// - tests assert no wall-clock time (wall-clock-asserts.mjs); `@raas/engine/testing` is for tests.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { layerOf as layerOfWorkspace } from "./layers.mjs";
import { describeWallClockAssert, findWallClockAsserts } from "./wall-clock-asserts.mjs";

const root = new URL("..", import.meta.url).pathname;
const ENGINE_FORBIDDEN = [
  /^@prisma\//,
  /^prisma$/,
  /^pg$/,
  /^@electric-sql\//,
  /^pglite/,
  /^ioredis$/,
  /^bullmq$/,
  /^redis$/,
  /^node-pty$/,
  /^next(\/|$)/,
  /^react/,
  /^undici$/,
  /^axios$/,
  /^node:(http|https|net|child_process)$/,
  /^(http|https|net|child_process)$/,
];

const workspaces = [];
for (const dir of ["packages", "apps"]) {
  for (const name of readdirSync(join(root, dir))) {
    const manifest = join(root, dir, name, "package.json");
    try {
      const pkg = JSON.parse(readFileSync(manifest, "utf8"));
      workspaces.push({ dir, name, path: join(root, dir, name), pkg });
    } catch {}
  }
}
const byPackageName = new Map(workspaces.map((w) => [w.pkg.name, w]));
const layerOf = (w) => layerOfWorkspace(w.dir, w.name);
const isAdapter = (w) => w.dir === "packages" && layerOf(w) === 2;
/** The engine and training: pure logic behind ports, no I/O technology. */
const isCore = (w) => w.dir === "packages" && (w.name === "engine" || w.name === "training");
const errors = [];

function sourceFiles(dir) {
  const out = [];
  let entries = [];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (["node_modules", ".next", "dist", "generated", ".turbo"].includes(entry)) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx|mts)$/.test(entry) && !entry.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** A subpath the target package's `exports` lists (e.g. `@raas/ui/stat-card` under `./*`). */
function isDeclaredExport(base, spec) {
  const exports = byPackageName.get(base)?.pkg.exports;
  if (!exports || typeof exports !== "object") return false;
  const subpath = `.${spec.slice(base.length)}`;
  return Object.keys(exports).some((key) =>
    key.endsWith("/*")
      ? subpath.startsWith(key.slice(0, -1)) && subpath.length > key.length - 1
      : key === subpath,
  );
}

const importPattern =
  /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|require\(\s*["']([^"']+)["']\s*\)/g;

for (const w of workspaces) {
  const declared = { ...w.pkg.dependencies, ...w.pkg.devDependencies };
  for (const dep of Object.keys(declared)) {
    const target = byPackageName.get(dep);
    if (!target) continue;
    // The simulator is the labelled test double for a GPU model: apps may use it in their tests.
    const isTestDouble =
      dep === "@raas/simulator" && dep in (w.pkg.devDependencies ?? {}) && w.dir === "apps";
    // An adapter's tests may run against another adapter (real sandboxes); its code may not.
    const isAdapterTestTool =
      isAdapter(w) && isAdapter(target) && target !== w && dep in (w.pkg.devDependencies ?? {});
    const ok = isTestDouble || isAdapterTestTool || layerOf(target) < layerOf(w);
    if (!ok && isAdapter(w) && isAdapter(target))
      errors.push(
        `${w.pkg.name} depends on ${dep}: adapters do not know each other — move what they share into the engine's ports or @raas/shared (a devDependency for tests is allowed)`,
      );
    else if (!ok)
      errors.push(
        `${w.pkg.name} depends on ${dep}: dependencies must point shared ← engine ← training ← adapters ← api ← apps`,
      );
  }
  for (const file of sourceFiles(join(w.path, "src"))) {
    const text = readFileSync(file, "utf8");
    const rel = relative(root, file);
    const isTest = /\.test\.tsx?$|\/test\//.test(rel);
    for (const match of text.matchAll(importPattern)) {
      const spec = match[1] ?? match[2] ?? match[3];
      if (spec.startsWith("@raas/")) {
        const base = spec.split("/").slice(0, 2).join("/");
        if (spec !== base && !isDeclaredExport(base, spec))
          errors.push(`${rel}: deep import "${spec}" — import from "${base}" or a subpath it exports`);
        if (base !== w.pkg.name && !(base in declared))
          errors.push(`${rel}: imports ${base} but ${w.pkg.name} does not declare it`);
        if (!isTest && spec === "@raas/engine/testing")
          errors.push(
            `${rel}: imports @raas/engine/testing — test support (the manual clock) is for tests only`,
          );
        const target = byPackageName.get(base);
        if (!isTest && target && target !== w && isAdapter(w) && isAdapter(target))
          errors.push(
            `${rel}: imports ${base} — adapters do not know each other; move what they share into the engine's ports or @raas/shared`,
          );
      }
      if (isCore(w) && ENGINE_FORBIDDEN.some((re) => re.test(spec))) {
        errors.push(`${rel}: ${w.pkg.name} must not import "${spec}" (adapters and apps own I/O technology)`);
      }
    }
    if (w.dir === "packages" && !isTest && /process\.env\b/.test(text)) {
      errors.push(`${rel}: libraries never read process.env — take options from the app's env.ts`);
    }
    for (const cast of isTest ? [] : text.matchAll(/\bas\s+unknown\s+as\b/g)) {
      const line = text.slice(0, cast.index).split("\n").length;
      errors.push(
        `${rel}:${line}: \`as unknown as\` in production code — parse the value with a zod schema (or narrow it with a type guard) instead of casting`,
      );
    }
  }
}

// Tests assert order and counts of events, never wall-clock time (see wall-clock-asserts.mjs).
function testFiles(dir) {
  let entries = [];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    if (["node_modules", ".next", "dist", "generated", ".turbo", "results"].includes(entry)) return [];
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return testFiles(path);
    return /\.test\.tsx?$/.test(entry) ? [path] : [];
  });
}
for (const dir of ["packages", "apps", "bench", "e2e", "scripts"]) {
  for (const file of testFiles(join(root, dir))) {
    const rel = relative(root, file);
    if (rel === "scripts/wall-clock-asserts.test.ts") continue; // its fixtures are the findings
    for (const found of findWallClockAsserts(readFileSync(file, "utf8")))
      errors.push(describeWallClockAssert(rel, found));
  }
}

// Cycles over declared workspace dependencies.
const visiting = new Set();
const done = new Set();
function visit(name, path) {
  if (done.has(name)) return;
  if (visiting.has(name)) {
    errors.push(`dependency cycle: ${[...path, name].join(" → ")}`);
    return;
  }
  visiting.add(name);
  const w = byPackageName.get(name);
  for (const dep of Object.keys({ ...w.pkg.dependencies, ...w.pkg.devDependencies })) {
    if (byPackageName.has(dep)) visit(dep, [...path, name]);
  }
  visiting.delete(name);
  done.add(name);
}
for (const name of byPackageName.keys()) visit(name, []);

if (errors.length > 0) {
  console.error(`dependency check failed (${errors.length}):\n  ${errors.join("\n  ")}`);
  process.exit(1);
}
console.log(
  `dependency check passed: ${workspaces.length} workspaces, direction shared ← engine ← training ← adapters ← api ← apps`,
);
