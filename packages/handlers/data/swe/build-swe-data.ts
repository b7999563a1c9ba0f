/**
 * Builds the SWE fixture dataset from `sources/`: one git repository per source (a single commit
 * with fixed author, committer and dates, so `base_commit` is the same on every machine), its
 * bundle in `bundles/<owner>__<name>.bundle`, and `instances.jsonl` in SWE-bench form with the gold
 * `patch` (the `fix/` overlay) and the `test_patch` (the `tests/` overlay) computed by git.
 *
 * Usage: `npx tsx packages/handlers/data/swe/build-swe-data.ts [outDir]` (default: this directory).
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

interface SourceMeta {
  instance_id: string;
  repo: string;
  problem_statement: string;
  hints_text: string;
  created_at: string;
  version: string;
  FAIL_TO_PASS: string[];
  PASS_TO_PASS: string[];
  /** The instance's own test command (SWE-bench-style datasets may carry one). */
  test_cmd?: string;
  /**
   * Another source of the same repository whose instance comes earlier: this repository's history
   * continues from that base with its fix and tests committed, then this `base/` as a new commit.
   */
  after?: string;
  /**
   * An edge case that cannot run without configuration or fails evaluation on purpose: written to
   * `edge-instances.jsonl`, so that `instances.jsonl` stays runnable by any consumer as is.
   */
  edge?: boolean;
}

const here = dirname(fileURLToPath(import.meta.url));
const AUTHOR = { name: "RaaS Fixtures", email: "fixtures@raas.invalid" };

function git(cwd: string, home: string, date: string, args: string[]): string {
  return execFileSync(
    "git",
    [
      "-c",
      "core.autocrlf=false",
      "-c",
      "init.defaultBranch=main",
      "-c",
      "commit.gpgsign=false",
      "-c",
      "diff.noprefix=false",
      "-c",
      "pack.threads=1",
      ...args,
    ],
    {
      cwd,
      encoding: "utf8",
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: home,
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_AUTHOR_NAME: AUTHOR.name,
        GIT_AUTHOR_EMAIL: AUTHOR.email,
        GIT_COMMITTER_NAME: AUTHOR.name,
        GIT_COMMITTER_EMAIL: AUTHOR.email,
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
        TZ: "UTC",
      },
    },
  );
}

/** The diff an overlay directory makes to the base commit (new files included). */
function overlayDiff(repoDir: string, home: string, date: string, overlay: string): string {
  cpSync(overlay, repoDir, { recursive: true });
  git(repoDir, home, date, ["add", "-A"]);
  const diff = git(repoDir, home, date, ["diff", "--cached", "--no-color", "--no-ext-diff", "HEAD"]);
  git(repoDir, home, date, ["reset", "-q", "--hard", "HEAD"]);
  git(repoDir, home, date, ["clean", "-fdq"]);
  return diff;
}

function buildOne(
  sourceDir: string,
  outDir: string,
  scratch: string,
  sourcesDir: string,
): { edge: boolean; instance: Record<string, unknown> } {
  const meta = JSON.parse(readFileSync(join(sourceDir, "instance.json"), "utf8")) as SourceMeta;
  const repoName = meta.repo.replace("/", "__");
  const repoDir = join(scratch, repoName);
  const home = join(scratch, "home");
  mkdirSync(home, { recursive: true });
  const commit = (message: string) => {
    git(repoDir, home, meta.created_at, ["add", "-A"]);
    git(repoDir, home, meta.created_at, ["commit", "-q", "-m", message]);
  };
  if (meta.after === undefined) {
    cpSync(join(sourceDir, "base"), repoDir, { recursive: true });
    git(repoDir, home, meta.created_at, ["init", "-q", "."]);
  } else {
    // The earlier instance's fix and tests land first; then this base replaces the whole tree.
    const earlier = join(sourcesDir, meta.after);
    cpSync(join(earlier, "fix"), repoDir, { recursive: true });
    cpSync(join(earlier, "tests"), repoDir, { recursive: true });
    commit(`Fix the issue of ${meta.after}`);
    git(repoDir, home, meta.created_at, ["rm", "-rq", "."]);
    cpSync(join(sourceDir, "base"), repoDir, { recursive: true });
  }
  commit(`Import ${meta.repo} ${meta.version}`);
  const baseCommit = git(repoDir, home, meta.created_at, ["rev-parse", "HEAD"]).trim();
  const patch = overlayDiff(repoDir, home, meta.created_at, join(sourceDir, "fix"));
  const testPatch = overlayDiff(repoDir, home, meta.created_at, join(sourceDir, "tests"));
  mkdirSync(join(outDir, "bundles"), { recursive: true });
  // One bundle per repository with its whole history (a later instance of the repository
  // rewrites it); the repo source cuts each instance's history out of it.
  git(repoDir, home, meta.created_at, [
    "bundle",
    "create",
    "-q",
    join(outDir, "bundles", `${repoName}.bundle`),
    "HEAD",
    "main",
  ]);
  const instance = {
    instance_id: meta.instance_id,
    repo: meta.repo,
    base_commit: baseCommit,
    patch,
    test_patch: testPatch,
    problem_statement: meta.problem_statement,
    hints_text: meta.hints_text,
    created_at: meta.created_at,
    version: meta.version,
    // SWE-bench's published JSONL keeps the test lists as JSON-encoded strings.
    FAIL_TO_PASS: JSON.stringify(meta.FAIL_TO_PASS),
    PASS_TO_PASS: JSON.stringify(meta.PASS_TO_PASS),
    environment_setup_commit: baseCommit,
    ...(meta.test_cmd !== undefined && { test_cmd: meta.test_cmd }),
  };
  return { edge: meta.edge === true, instance };
}

const createdAt = (sourceDir: string) =>
  (JSON.parse(readFileSync(join(sourceDir, "instance.json"), "utf8")) as SourceMeta).created_at;

const jsonl = (records: readonly Record<string, unknown>[]) =>
  `${records.map((record) => JSON.stringify(record)).join("\n")}\n`;

/**
 * Builds every source into `outDir`, oldest `created_at` first (so an `after` source follows the
 * one it continues); returns the instances written to `instances.jsonl` and `edge-instances.jsonl`.
 */
export function buildSweData(
  outDir: string,
  sourcesDir = join(here, "sources"),
): { instances: Record<string, unknown>[]; edge: Record<string, unknown>[] } {
  const scratch = mkdtempSync(join(tmpdir(), "raas-swe-data-"));
  try {
    const built = readdirSync(sourcesDir)
      .map((name) => join(sourcesDir, name))
      .sort((a, b) => createdAt(a).localeCompare(createdAt(b)) || a.localeCompare(b))
      .map((sourceDir) => buildOne(sourceDir, outDir, scratch, sourcesDir));
    const instances = built.filter((item) => !item.edge).map((item) => item.instance);
    const edge = built.filter((item) => item.edge).map((item) => item.instance);
    writeFileSync(join(outDir, "instances.jsonl"), jsonl(instances));
    writeFileSync(join(outDir, "edge-instances.jsonl"), jsonl(edge));
    return { instances, edge };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = resolve(process.argv[2] ?? here);
  const { instances, edge } = buildSweData(outDir);
  console.log(`wrote ${instances.length} + ${edge.length} edge instances and their bundles to ${outDir}`);
}
