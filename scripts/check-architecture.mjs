// ARCHITECTURE.md checked against the code (part of `npm run check`):
// - its package table (rows "| `packages/<name>` | <layer> | …") lists every workspace under
//   packages/ and apps/, at the layer check-deps.mjs enforces (layers.mjs), and no other;
// - every repository path it cites in backticks (packages/…, apps/…, bench/…, scripts/…, e2e/…,
//   clients/…, infra/…), the tests that show each invariant above all, exists;
// - it stays short: at most MAX_WORDS words outside fenced blocks (the diagrams), so figures and
//   per-kind detail go to the packages' and benches' READMEs.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { layerOf } from "./layers.mjs";

const TABLE_ROW = /^\|\s*`((?:packages|apps)\/[\w.-]+)`\s*\|\s*([\d.]+)\s*\|/;
/** Issue 32: "at most ~1,500 words". */
export const MAX_WORDS = 1_500;
const CITED_PATH = /`((?:packages|apps|bench|scripts|e2e|clients|infra)\/[\w./@-]+)`/g;

/** Workspaces under packages/ and apps/ (directories with a package.json) and their layers. */
export function listWorkspaces(root) {
  const out = [];
  for (const dir of ["packages", "apps"]) {
    for (const name of readdirSync(join(root, dir))) {
      if (existsSync(join(root, dir, name, "package.json")))
        out.push({ path: `${dir}/${name}`, layer: layerOf(dir, name) });
    }
  }
  return out;
}

/** What in `markdown` disagrees with the workspaces and the files under `root`, one line each. */
export function findArchitectureProblems(markdown, workspaces, exists) {
  const problems = [];
  const rows = new Map();
  for (const line of markdown.split("\n")) {
    const row = TABLE_ROW.exec(line);
    if (row) rows.set(row[1], Number(row[2]));
  }
  for (const { path, layer } of workspaces) {
    if (!rows.has(path)) problems.push(`${path} is missing from the package table`);
    else if (rows.get(path) !== layer)
      problems.push(`${path} is listed at layer ${rows.get(path)}; scripts/layers.mjs says ${layer}`);
  }
  const known = new Set(workspaces.map((w) => w.path));
  for (const path of rows.keys())
    if (!known.has(path)) problems.push(`${path} is in the package table but is no workspace`);
  for (const [, path] of markdown.matchAll(CITED_PATH))
    if (!exists(path.replace(/\/$/, ""))) problems.push(`${path} is cited but does not exist`);
  const words = proseWords(markdown);
  if (words > MAX_WORDS)
    problems.push(`${words} words outside fenced blocks, over ${MAX_WORDS}: move detail to a README`);
  return problems;
}

/**
 * Words outside fenced (```) blocks: the prose and tables a reader reads, not the diagrams. A word
 * has a letter or digit (a table's pipes and rules are none).
 */
export function proseWords(markdown) {
  let fenced = false;
  let words = 0;
  for (const line of markdown.split("\n")) {
    if (line.trimStart().startsWith("```")) fenced = !fenced;
    else if (!fenced) words += line.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  }
  return words;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const root = new URL("..", import.meta.url).pathname;
  const markdown = readFileSync(join(root, "ARCHITECTURE.md"), "utf8");
  const problems = findArchitectureProblems(markdown, listWorkspaces(root), (p) => existsSync(join(root, p)));
  if (problems.length > 0) {
    console.error(`ARCHITECTURE.md disagrees with the code:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    process.exit(1);
  }
  console.log("check-architecture: the package table and every cited path agree with the code");
}
