/**
 * Shell scripts the SWE handler runs inside a sandbox with `sandbox.exec(["bash", "-c", script])`
 * (non-interactive, stdin closed, apart from the agent's shell). Pure string builders: every path
 * and argument is quoted here.
 */

/** Workspace root inside every sandbox. */
export const WORKSPACE_DIR = "/workspace";
/** Handler inputs (bundle, patches, sitecustomize) and the diff, outside the repo. */
const RAAS_DIR = `${WORKSPACE_DIR}/.raas`;
/** Workspace-relative paths of the files the handler exchanges with the sandbox. */
export const SWE_FILES = {
  bundle: ".raas/repo.bundle",
  modelPatch: ".raas/model.patch",
  testPatch: ".raas/test.patch",
  sitecustomize: ".raas/site/sitecustomize.py",
} as const;

/** The one ref of a per-instance bundle (see `SweRepoSource`): `base_commit` and its history. */
export const BASE_BUNDLE_REF = "refs/raas/base";

/** Lines every git invocation gets, so a `~/.gitconfig` the agent wrote cannot change the diff. */
const GIT = "git -c core.pager=cat -c diff.noprefix=false -c diff.mnemonicPrefix=false -c color.ui=false";

/** Single-quotes a string for bash. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** The directory name of a repository in the workspace: `owner/name` → `name`. */
function repoDirName(repo: string): string {
  return repo.split("/").at(-1) as string;
}

/** Absolute path of the repository checkout inside the sandbox. */
export function repoPath(repo: string): string {
  return `${WORKSPACE_DIR}/${repoDirName(repo)}`;
}

/** Python that seeds `random` at interpreter start (put on PYTHONPATH as sitecustomize). */
export const SITECUSTOMIZE_PY = `# Written by RaaS: fixed seeds for reproducible evaluation runs.
import os as _os
import random as _random

_random.seed(int(_os.environ.get("RAAS_SEED", "0")))
`;

/**
 * Fetches the bundle's one ref into a fresh repository, checks `baseCommit` out detached and
 * leaves nothing else: no branch, tag, remote, FETCH_HEAD, reflog or unreachable object (the
 * bundle already holds `baseCommit`'s history only), then drops the bundle. The repository gets
 * no git template (no sample hooks, no description): fewer files for every copy of a group's
 * workspace to make.
 */
export function materializeScript(repo: string, baseCommit: string): string {
  const dir = shellQuote(repoPath(repo));
  const bundle = shellQuote(`${WORKSPACE_DIR}/${SWE_FILES.bundle}`);
  return `set -e
${GIT} init -q --template= ${dir}
cd ${dir}
mkdir -p .git/info
${GIT} fetch -q --no-tags ${bundle} ${BASE_BUNDLE_REF}
${GIT} checkout -q --detach ${shellQuote(baseCommit)}
rm -f .git/FETCH_HEAD .git/ORIG_HEAD
${GIT} reflog expire --expire=now --all
${GIT} gc -q --prune=now
${GIT} config user.email agent@raas.invalid
${GIT} config user.name "RaaS agent"
printf '%s\\n' '__pycache__/' '*.pyc' '.pytest_cache/' >> .git/info/exclude
rm -f ${bundle}
test "$(${GIT} rev-parse HEAD)" = ${shellQuote(baseCommit)}
test -z "$(${GIT} for-each-ref)"
`;
}

/** Runs one setup command in the repository. */
export function setupScript(repo: string, command: string): string {
  return `cd ${shellQuote(repoPath(repo))} && ${command}`;
}

/** Prints the model's diff against `baseCommit` (new files included) on stdout. */
export function extractDiffScript(repo: string, baseCommit: string): string {
  return `set -e
cd ${shellQuote(repoPath(repo))}
${GIT} add -A
${GIT} diff --cached --binary --no-color --no-ext-diff --src-prefix=a/ --dst-prefix=b/ ${shellQuote(baseCommit)}
`;
}

/** Marker lines the apply script prints; parse with {@link parseApplyMethod}. */
const APPLIED = "RAAS_APPLIED=";
/** Where the apply script keeps the untracked files that were there before the model patch. */
const UNTRACKED_BEFORE = `${RAAS_DIR}/untracked-before`;

/**
 * Files that configure the test run or hook into the interpreter, which the grader owns: pytest's
 * config files anywhere (`conftest.py`, `pytest.ini`, `.pytest.ini`, `pytest.toml`, `.pytest.toml`,
 * `tox.ini`, `setup.cfg`, `pyproject.toml`: `addopts = -p plugin`, `pytest_plugins`, hooks), the
 * interpreter's start-up hooks (`sitecustomize.py`, `usercustomize.py`, `.pth`), and compiled
 * modules that would be imported instead of a source file (`.pyc`, `__pycache__/`, `.so`, `.pyd`).
 * After the model patch, every such file it added or changed is put back to `base_commit` (or
 * removed) and named in a `RAAS_REVERTED=` line: the run's configuration is the base commit's
 * plus the instance spec's, never the policy's.
 */
const TEST_INFRASTRUCTURE_ERE = String.raw`(^|/)(conftest\.py|\.?pytest\.ini|\.?pytest\.toml|tox\.ini|setup\.cfg|pyproject\.toml|sitecustomize\.py|usercustomize\.py)$|\.(pth|pyc|pyo|so|pyd)$|(^|/)__pycache__/`;

/**
 * Lists the repository's untracked files (what setup built: extension modules, egg-info) so the
 * apply script can tell them from what the model patch adds. Run right before it.
 */
export function snapshotUntrackedScript(repo: string): string {
  return `set -e
cd ${shellQuote(repoPath(repo))}
${GIT} ls-files --others | sort > ${shellQuote(UNTRACKED_BEFORE)}
`;
}

/**
 * `git apply`, then `patch --batch --fuzz=5 -p1`; prints which one worked (or `none`), then
 * reverts the test-infrastructure files the patch added or changed (see
 * {@link TEST_INFRASTRUCTURE_FILES}); files setup had made before the patch are left alone.
 */
export function applyModelPatchScript(repo: string, baseCommit: string): string {
  const patch = shellQuote(`${WORKSPACE_DIR}/${SWE_FILES.modelPatch}`);
  const base = shellQuote(baseCommit);
  const before = shellQuote(UNTRACKED_BEFORE);
  return `exec 2>&1
cd ${shellQuote(repoPath(repo))} || exit 1
[ -f ${before} ] || : > ${before}
if ${GIT} apply -v ${patch}; then echo ${APPLIED}git-apply
elif patch --batch --fuzz=5 -p1 --no-backup-if-mismatch -i ${patch}; then echo ${APPLIED}patch-fuzz
else echo ${APPLIED}none; exit 0; fi
{ ${GIT} diff --name-only ${base}; ${GIT} ls-files --others | sort | comm -13 ${before} -; } | grep -E '${TEST_INFRASTRUCTURE_ERE}' | sort -u | while IFS= read -r file; do
  if ${GIT} cat-file -e ${base}:"$file" 2>/dev/null; then ${GIT} checkout -q ${base} -- "$file"; else rm -f -- "$file"; fi
  echo "RAAS_REVERTED=$file"
done
rm -f ${before}
`;
}

/** The files the apply script reverted, in its order. */
export function parseReverted(output: string): string[] {
  return [...output.matchAll(/^RAAS_REVERTED=(.+)$/gm)].map((match) => match[1] as string);
}

export function parseApplyMethod(output: string): "git-apply" | "patch-fuzz" | null {
  const match = /RAAS_APPLIED=(git-apply|patch-fuzz|none)/.exec(output);
  return match?.[1] === "git-apply" || match?.[1] === "patch-fuzz" ? match[1] : null;
}

/** Files a unified git diff touches (the `b/` side; deletions keep the `a/` path). */
export function patchedFiles(patch: string): string[] {
  const files = new Set<string>();
  for (const line of patch.split("\n")) {
    const match = /^diff --git a\/(\S+) b\/(\S+)$/.exec(line);
    if (match) files.add(match[2] as string);
  }
  return [...files];
}

/**
 * Removes the grader's inputs the tests could read (the test patch tells the graded tests from
 * the canaries planted beside them) before anything of the model's code runs.
 */
export function removeGraderInputsScript(): string {
  return `rm -f ${shellQuote(`${WORKSPACE_DIR}/${SWE_FILES.modelPatch}`)} ${shellQuote(`${WORKSPACE_DIR}/${SWE_FILES.testPatch}`)}\n`;
}

/**
 * Restores the files the test patch touches to their base version (removing ones the base does
 * not have), so a model that edited tests cannot block or pre-empt the test patch, then applies it.
 */
export function applyTestPatchScript(repo: string, baseCommit: string, testPatch: string): string {
  const base = shellQuote(baseCommit);
  const resets = patchedFiles(testPatch).map((file) => {
    const path = shellQuote(file);
    return `if ${GIT} cat-file -e ${shellQuote(`${baseCommit}:${file}`)} 2>/dev/null; then ${GIT} checkout -q ${base} -- ${path}; else rm -f -- ${path}; fi`;
  });
  return `set -e
exec 2>&1
cd ${shellQuote(repoPath(repo))}
${resets.join("\n")}
${GIT} apply -v ${shellQuote(`${WORKSPACE_DIR}/${SWE_FILES.testPatch}`)}
`;
}

/**
 * Prints `RAAS_PYTHON=<version>` and `RAAS_PYTEST=<version>` (each only when available). Isolated
 * (`-I`: no current directory on the path, no PYTHON* variables), so nothing of the repository runs.
 */
export function versionProbeScript(repo: string): string {
  return `cd ${shellQuote(repoPath(repo))} || exit 0
python3 -I -c 'import platform; print("RAAS_PYTHON=" + platform.python_version(), flush=True)
import pytest; print("RAAS_PYTEST=" + pytest.__version__)' 2>/dev/null
true
`;
}

export function parseVersions(output: string): { python: string | null; pytest: string | null } {
  return {
    python: /RAAS_PYTHON=(\S+)/.exec(output)?.[1] ?? null,
    pytest: /RAAS_PYTEST=(\S+)/.exec(output)?.[1] ?? null,
  };
}

/** The deterministic environment of a test run. */
export function testEnvironment(seed: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    TZ: "UTC",
    PYTHONHASHSEED: "0",
    PYTHONDONTWRITEBYTECODE: "1",
    LC_ALL: "C.UTF-8",
    LANG: "C.UTF-8",
    RAAS_SEED: String(seed),
    // The grader owns the run's configuration: no plugin loads unless the spec names it.
    PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1",
    PYTHONNOUSERSITE: "1",
    ...extra,
  };
}

/**
 * Variables that would let something other than the grader configure the test run (options and
 * plugins for pytest, code run at interpreter start, another user site). The test script unsets
 * each one the instance's spec does not set itself.
 */
export const TEST_CONFIG_VARIABLES: readonly string[] = [
  "PYTEST_ADDOPTS",
  "PYTEST_PLUGINS",
  "PYTHONSTARTUP",
  "PYTHONINSPECT",
  "PYTHONUSERBASE",
  "PYTHONHOME",
  "PYTHONSAFEPATH",
  "PYTHONEXECUTABLE",
  "BASH_ENV",
  "ENV",
];

/** Exit code `timeout` reports when it had to stop the command (124) or kill it (137). */
export const TIMEOUT_EXIT_CODES: readonly number[] = [124, 137];

/**
 * Runs `command directives…` in the repository under `timeout`, stderr merged into stdout (the
 * log is the captured stdout, never a file the tests could rewrite); the script's exit code is
 * the test command's (124/137 after a timeout). The environment comes with the exec call;
 * the sitecustomize directory is put first on PYTHONPATH here.
 */
export function runTestsScript(input: {
  repo: string;
  command: string;
  directives: readonly string[];
  timeoutSec: number;
  /** Variables to unset before the run (see {@link TEST_CONFIG_VARIABLES}). Default none. */
  unset?: readonly string[];
}): string {
  const site = `${WORKSPACE_DIR}/.raas/site`;
  const inner = [input.command, ...input.directives.map(shellQuote)].join(" ");
  const unset = input.unset?.length ? `unset ${input.unset.join(" ")}\n` : "";
  return `exec 2>&1
cd ${shellQuote(repoPath(input.repo))} || exit 1
${unset}export PYTHONPATH=${shellQuote(site)}\${PYTHONPATH:+:$PYTHONPATH}
exec timeout -k 10 ${Math.max(1, Math.ceil(input.timeoutSec))} bash -c ${shellQuote(inner)}
`;
}
