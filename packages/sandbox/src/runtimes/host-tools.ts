import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { BWRAP_INSIDE } from "./bubblewrap-command";

/**
 * Host programs a sandbox on an image runs from the host, with the host's own loader and
 * libraries: bwrap (the tool jail) and prlimit (the process limit). An image may lack them, or
 * hold libraries they do not fit (an older glibc, no libcap or libselinux, musl): run through the
 * host's `ld.so --library-path`, they need nothing from the image. Bound read-only at
 * `BWRAP_INSIDE.hostTools`.
 */
export interface HostTools {
  /** Host directory: `bin/<name>` (the loader, or a static tool), `libexec/<name>`, `lib/` (the libraries). */
  dir: string;
  /** The host loader's file name; null when every tool is static. */
  loaderName: string | null;
  /** Names of the staged tools. */
  names: string[];
  /** Where the sandbox sees `dir`. Default `BWRAP_INSIDE.hostTools`. */
  inside?: string;
}

const HOST_TOOLS_INSIDE = BWRAP_INSIDE.hostTools;

/**
 * The argv prefix that runs host tool `name` inside a sandbox: `bin/<name>` is a copy of the
 * loader (so the process is named after the tool, as `ps` and /proc show it), `libexec/<name>`
 * the program it loads with the host's libraries.
 */
export function hostToolArgv(tools: HostTools, name: string, launcherPath?: string): string[] {
  const inside = tools.inside ?? HOST_TOOLS_INSIDE;
  const launcher = launcherPath ?? `${inside}/bin/${name}`;
  if (tools.loaderName === null) return [launcher];
  return [launcher, "--library-path", `${inside}/lib`, `${inside}/libexec/${name}`];
}

/** The shared objects `binary` loads, by the name it asks for, and its loader; via the host's ldd. */
export function sharedObjectsOf(binary: string): { loader: string | null; libraries: Map<string, string> } {
  const libraries = new Map<string, string>();
  let loader: string | null = null;
  let listing: string;
  try {
    listing = execFileSync("ldd", [binary], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch {
    return { loader: null, libraries }; // A static binary ("not a dynamic executable").
  }
  for (const line of listing.split("\n")) {
    const linked = /^\s*(\S+) => (\/\S+) \(/.exec(line);
    if (linked) libraries.set(linked[1]!, linked[2]!);
    const interpreter = /^\s*(\/\S+) \(/.exec(line);
    if (interpreter) loader = interpreter[1]!;
  }
  return { loader, libraries };
}

/** A directory of this user's that nobody else may write (a planted binary would run in every sandbox). */
function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const info = lstatSync(dir);
  const uid = process.getuid?.();
  if (!info.isDirectory() || (uid !== undefined && info.uid !== uid) || (info.mode & 0o022) !== 0)
    throw new Error(
      `refusing the host tools directory ${dir}: it must be this user's and writable by no one else`,
    );
}

/**
 * Copies `sources` (name → host path) with the loader and libraries they need into a directory
 * under `parent` (default `<tmpdir>/raas-host-tools-<uid>`), once per content: the directory is
 * written beside its final path and renamed into place, so no sandbox sees a half-written one.
 * Undefined when no source exists. `alsoLoads`: shared objects the tools load at run time (node's
 * native addons), whose libraries are staged too.
 */
export function stageHostTools(
  sources: Readonly<Record<string, string | undefined>>,
  parent = join(tmpdir(), `raas-host-tools-${process.getuid?.() ?? "user"}`),
  alsoLoads: readonly string[] = [],
): HostTools | undefined {
  const present = Object.entries(sources)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && existsSync(entry[1]))
    .map(([name, path]) => [name, realpathSync(path)] as const);
  if (present.length === 0) return undefined;
  const libraries = new Map<string, string>();
  let loader: string | null = null;
  for (const path of [...present.map(([, path]) => path), ...alsoLoads]) {
    const needs = sharedObjectsOf(path);
    for (const [name, lib] of needs.libraries) libraries.set(name, realpathSync(lib));
    loader ??= needs.loader === null ? null : realpathSync(needs.loader);
  }
  const loaderName = loader === null ? null : basename(loader);
  const files = [...present.map(([, path]) => path), ...libraries.values(), ...(loader ? [loader] : [])];
  const stamp = files.map((path) => `${path}:${statSync(path).size}:${Math.floor(statSync(path).mtimeMs)}`);
  const key = createHash("sha256").update(stamp.join("\n")).digest("hex").slice(0, 16);
  ensurePrivateDir(parent);
  const dir = join(parent, `tools-v2-${key}`); // v2: bin/ launchers, libexec/ programs
  const names = present.map(([name]) => name);
  if (existsSync(join(dir, "complete"))) return { dir, loaderName, names };
  const staging = `${dir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  for (const sub of ["bin", "libexec", "lib"])
    mkdirSync(join(staging, sub), { recursive: true, mode: 0o755 });
  for (const [name, path] of present) {
    const program = join(staging, loader === null ? "bin" : "libexec", name);
    copyFileSync(path, program);
    chmodSync(program, 0o755);
    if (loader === null) continue;
    copyFileSync(loader, join(staging, "bin", name));
    chmodSync(join(staging, "bin", name), 0o755);
  }
  for (const [name, path] of libraries) copyFileSync(path, join(staging, "lib", name));
  copyFileSync("/dev/null", join(staging, "complete"));
  try {
    renameSync(staging, dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(dir, "complete"))) throw error;
  }
  return { dir, loaderName, names };
}
