/**
 * Harbor tasks name fixed absolute paths: the container's workdir (`/app` in most), the verifier's
 * `/tests` and `/logs/verifier`, the oracle's `/solution`. A RaaS sandbox on the host image has one
 * writable directory, `/workspace`, and commands run with no user namespace of their own, so those
 * paths cannot be mounted: they are rewritten in the task's text files (instruction, environment
 * files, tests, solution) instead. Only whole path prefixes are rewritten — `/app` and `/app/x`,
 * never `/srv/app` or `/apples` — and binary files are left as they are.
 */
export type HarborPathMap = ReadonlyArray<readonly [from: string, to: string]>;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Rewrites each `from` path prefix of `map` in `text` to its `to`, in one pass. */
export function rewriteHarborPaths(text: string, map: HarborPathMap): string {
  const effective = map.filter(([from, to]) => from !== to);
  if (effective.length === 0) return text;
  const ordered = [...effective].sort((a, b) => b[0].length - a[0].length);
  const pattern = new RegExp(
    `(?<![\\w.~$/-])(${ordered.map(([from]) => escapeRegExp(from)).join("|")})(?![\\w.-])`,
    "g",
  );
  const targets = new Map(ordered);
  return text.replace(pattern, (match) => targets.get(match) ?? match);
}

/** The map of the agent's sandbox: the task's workdir is the workspace. */
export function agentPathMap(workdir: string, workspace: string): HarborPathMap {
  return [[workdir, workspace]];
}

/** The map of the verifier's run: the workdir, and Harbor's fixed paths under `root`. */
export function verifierPathMap(workdir: string, workspace: string, root: string): HarborPathMap {
  return [
    [workdir, workspace],
    ["/tests", `${root}/tests`],
    ["/logs/verifier", `${root}/logs/verifier`],
    ["/logs/agent", `${root}/logs/agent`],
    ["/solution", `${root}/solution`],
  ];
}
