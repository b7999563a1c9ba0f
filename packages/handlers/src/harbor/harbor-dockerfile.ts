import { posix } from "node:path";

/**
 * What of a task's `environment/Dockerfile` the host image can honour, decided before anything
 * runs, for a task that ships no prebuilt image (one that does: `planImageEnvironment`): it runs
 * on the host's root filesystem with its workdir as the sandbox workspace. The rule, one
 * instruction at a time:
 *
 * - honoured: one `FROM` (recorded; the host image stands in for it), `WORKDIR`, `ENV` with
 *   literal values, and `COPY`/`ADD` of local files (no globs, no URLs, no archives to unpack, no
 *   `--from`) to a destination inside the final workdir;
 * - without effect here, recorded: `ARG`, `LABEL`, `MAINTAINER`, `EXPOSE`, `CMD`, `ENTRYPOINT`,
 *   `USER`, `STOPSIGNAL`, `HEALTHCHECK` (Harbor starts its own command; the sandbox has one uid);
 * - anything else (`RUN`, a second `FROM`, `VOLUME`, `SHELL`, `ONBUILD`, a copy outside the
 *   workdir, `$` substitution) changes the image beyond what the host has: the task needs an image
 *   and is refused with the line that needs it — never run on the wrong root filesystem.
 */
export type HostEnvironmentVerdict =
  | { isHostCompatible: true; plan: HostEnvironmentPlan }
  | { isHostCompatible: false; reason: string };

export interface HostEnvironmentPlan {
  /** The Dockerfile's `FROM` image, recorded; null without a Dockerfile. */
  baseImage: string | null;
  /** The container's working directory the task's paths use; the sandbox workspace stands for it. */
  workdir: string;
  /** `ENV` of the Dockerfile (the task.toml's `[environment].env` goes over it). */
  env: Record<string, string>;
  /** Context paths copied (`""` = the whole context) and where, relative to the workdir. */
  copies: Array<{ source: string; destination: string; isDirectoryDestination: boolean }>;
  /** Instructions without effect here, as `LINE n: KEYWORD`. */
  ignored: string[];
}

/** The workspace of every sandbox (where the task's workdir is mapped). */
export const HARBOR_WORKSPACE = "/workspace";

const IGNORED = new Set([
  "ARG",
  "LABEL",
  "MAINTAINER",
  "EXPOSE",
  "CMD",
  "ENTRYPOINT",
  "USER",
  "STOPSIGNAL",
  "HEALTHCHECK",
]);

/** Directories a workdir may not be (nor lie below, for the first five): the host's or RaaS's own. */
const FORBIDDEN_WORKDIR_ROOTS = ["/proc", "/dev", "/sys", "/tmp", "/run", "/tests", "/logs", "/solution"];
const FORBIDDEN_WORKDIRS = new Set(["/", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc", "/var", "/opt"]);

export interface Instruction {
  line: number;
  keyword: string;
  args: string;
}

/** Joins continuation lines and drops comments and blank lines. */
export function instructionsOf(dockerfile: string): Instruction[] {
  const out: Instruction[] = [];
  let pending: { line: number; text: string } | null = null;
  for (const [index, raw] of dockerfile.split(/\r?\n/).entries()) {
    const trimmed = raw.trim();
    if (pending === null && (trimmed === "" || trimmed.startsWith("#"))) continue;
    if (pending !== null && trimmed.startsWith("#")) continue;
    const continues = trimmed.endsWith("\\");
    const text = continues ? trimmed.slice(0, -1) : trimmed;
    pending =
      pending === null ? { line: index + 1, text } : { line: pending.line, text: `${pending.text} ${text}` };
    if (continues) continue;
    const match = /^(\S+)\s*(.*)$/.exec(pending.text.trim());
    if (match)
      out.push({ line: pending.line, keyword: (match[1] ?? "").toUpperCase(), args: match[2] ?? "" });
    pending = null;
  }
  if (pending !== null) {
    const match = /^(\S+)\s*(.*)$/.exec(pending.text.trim());
    if (match)
      out.push({ line: pending.line, keyword: (match[1] ?? "").toUpperCase(), args: match[2] ?? "" });
  }
  return out;
}

/** `COPY ["a", "b", "dest/"]` or `COPY a b dest/`, flags split off. */
function copyOperands(args: string): { flags: string[]; paths: string[] } | null {
  const words = args.trim().startsWith("[") ? null : args.trim().split(/\s+/);
  if (words === null) {
    try {
      const parsed: unknown = JSON.parse(args.trim());
      if (!Array.isArray(parsed) || !parsed.every((p) => typeof p === "string")) return null;
      return { flags: [], paths: parsed };
    } catch {
      return null;
    }
  }
  const flags = words.filter((w) => w.startsWith("--"));
  return { flags, paths: words.filter((w) => !w.startsWith("--")) };
}

export function envPairs(args: string): Array<[string, string]> | null {
  const trimmed = args.trim();
  if (!trimmed.includes("=")) {
    const match = /^(\S+)\s+(.*)$/.exec(trimmed);
    return match ? [[match[1] ?? "", unquote(match[2] ?? "")]] : null;
  }
  const pairs: Array<[string, string]> = [];
  const pattern = /([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|'[^']*'|\S*)/g;
  let consumed = "";
  for (const match of trimmed.matchAll(pattern)) {
    pairs.push([match[1] ?? "", unquote(match[2] ?? "")]);
    consumed += match[0];
  }
  return consumed.replace(/\s/g, "") === trimmed.replace(/\s/g, "") ? pairs : null;
}

export function unquote(value: string): string {
  if (value.length >= 2 && (value.startsWith('"') || value.startsWith("'")) && value.endsWith(value[0] ?? ""))
    return value.slice(1, -1).replace(/\\(.)/g, "$1");
  return value;
}

export function checkWorkdir(workdir: string): string | null {
  if (!workdir.startsWith("/")) return `the workdir ${workdir} is not absolute`;
  const normalized = posix.normalize(workdir).replace(/\/$/, "") || "/";
  if (FORBIDDEN_WORKDIRS.has(normalized))
    return `the workdir ${normalized} is a system directory the host image cannot give the task`;
  for (const root of FORBIDDEN_WORKDIR_ROOTS) {
    if (normalized === root || normalized.startsWith(`${root}/`))
      return `the workdir ${normalized} lies in ${root}, which the sandbox does not let a task own`;
  }
  return null;
}

/**
 * What a task that needs its image and ships none lacks, and how to give it one: RaaS cannot
 * build a Dockerfile (no Docker, no network), but runs a prebuilt image (see harbor-image.ts).
 */
export const PREBUILT_IMAGE_PLACES =
  "next to the task as image.sif, image.tar (an OCI or docker save archive) or image.oci/ (an OCI layout), or name it in task.toml [environment].docker_image (an absolute path, or ./ relative to the task)";
const PREBUILT_IMAGE_HINT = `RaaS cannot build a Dockerfile: build the image where Docker or Apptainer runs and place it ${PREBUILT_IMAGE_PLACES}`;

const needsImage = (line: number, what: string): HostEnvironmentVerdict => ({
  isHostCompatible: false,
  reason: `environment/Dockerfile line ${line}: ${what} — this task needs its image, and it ships none (the host image lacks what this line adds). ${PREBUILT_IMAGE_HINT}`,
});

/**
 * Decides whether a task can run on the host image (see {@link HostEnvironmentVerdict}).
 * `dockerfile` null: no Dockerfile; `configWorkdir`: `[environment].workdir`, which wins.
 */
export function planHostEnvironment(
  dockerfile: string | null,
  configWorkdir: string | null,
): HostEnvironmentVerdict {
  const plan: HostEnvironmentPlan = { baseImage: null, workdir: "", env: {}, copies: [], ignored: [] };
  let current = "/";
  let sawWorkdir = false;
  const pendingCopies: Array<{ line: number; sources: string[]; destination: string }> = [];
  for (const { line, keyword, args } of dockerfile === null ? [] : instructionsOf(dockerfile)) {
    if (IGNORED.has(keyword)) {
      plan.ignored.push(`line ${line}: ${keyword}`);
      continue;
    }
    if (keyword !== "FROM" && args.includes("$"))
      return needsImage(line, `${keyword} uses $ substitution, which the host image cannot evaluate`);
    switch (keyword) {
      case "FROM":
        if (plan.baseImage !== null) return needsImage(line, "a second FROM (a multi-stage build)");
        plan.baseImage = args.trim().split(/\s+/)[0] ?? "";
        break;
      case "WORKDIR":
        current = posix.resolve(current, unquote(args.trim()));
        sawWorkdir = true;
        break;
      case "ENV": {
        const pairs = envPairs(args);
        if (pairs === null) return needsImage(line, "an ENV line that could not be read");
        for (const [key, value] of pairs) plan.env[key] = value;
        break;
      }
      case "COPY":
      case "ADD": {
        const operands = copyOperands(args);
        if (operands === null || operands.paths.length < 2)
          return needsImage(line, `a ${keyword} that could not be read`);
        const unsupported = operands.flags.filter((f) => !f.startsWith("--chown="));
        if (unsupported.length > 0) return needsImage(line, `${keyword} ${unsupported.join(" ")}`);
        const sources = operands.paths.slice(0, -1);
        for (const source of sources) {
          if (/[*?[]/.test(source)) return needsImage(line, `${keyword} of a glob (${source})`);
          if (/^[a-z]+:\/\//i.test(source) || source.startsWith("git@"))
            return needsImage(line, `${keyword} from a URL (${source})`);
          if (keyword === "ADD" && /\.(tar|tgz|tar\.\w+|txz|tbz2?)$/i.test(source))
            return needsImage(line, `ADD of an archive Docker would unpack (${source})`);
          const normalized = posix.normalize(source);
          if (posix.isAbsolute(source) || normalized === ".." || normalized.startsWith("../"))
            return needsImage(line, `${keyword} from outside the build context (${source})`);
        }
        const destination = posix.resolve(current, operands.paths.at(-1) ?? "");
        const isDir = (operands.paths.at(-1) ?? "").endsWith("/") || sources.length > 1;
        pendingCopies.push({ line, sources, destination: isDir ? `${destination}/` : destination });
        break;
      }
      default:
        return needsImage(line, `${keyword} changes the image`);
    }
  }
  const workdir = configWorkdir ?? (sawWorkdir ? current : dockerfile === null ? HARBOR_WORKSPACE : null);
  if (workdir === null) {
    if (pendingCopies.length > 0)
      return needsImage(
        pendingCopies[0]?.line ?? 0,
        "files copied with no WORKDIR for the workspace to stand for",
      );
    plan.workdir = HARBOR_WORKSPACE;
    return { isHostCompatible: true, plan };
  }
  const badWorkdir = checkWorkdir(workdir);
  if (badWorkdir !== null)
    return {
      isHostCompatible: false,
      reason: `${badWorkdir}; this task needs its image, and it ships none. ${PREBUILT_IMAGE_HINT}`,
    };
  plan.workdir = posix.normalize(workdir).replace(/(.)\/$/, "$1");
  if (dockerfile === null) plan.copies.push({ source: "", destination: "", isDirectoryDestination: true });
  for (const copy of pendingCopies) {
    const isDir = copy.destination.endsWith("/");
    const target = copy.destination.replace(/\/$/, "");
    const relative = posix.relative(plan.workdir, target);
    if (relative.startsWith("..") || posix.isAbsolute(relative))
      return needsImage(
        copy.line,
        `a copy to ${target}, outside the workdir ${plan.workdir} (the only directory the host image gives a task)`,
      );
    for (const source of copy.sources) {
      const normalized = posix.normalize(source).replace(/\/$/, "");
      plan.copies.push({
        source: normalized === "." ? "" : normalized,
        destination: relative,
        isDirectoryDestination: isDir,
      });
    }
  }
  return { isHostCompatible: true, plan };
}
