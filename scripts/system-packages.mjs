// What RaaS needs from the operating system, checked before `npm start` and `npm test` accept any
// work (scripts/start.mjs, scripts/test.mjs) and for the test services (scripts/ensure-services.mjs).
// Running as root with apt-get on PATH, missing Debian packages are installed (said on stderr);
// otherwise the caller stops at once with the exact command to run. RAAS_NO_APT=1 never installs.
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";

/** The system directories: where sandboxes look for python3, pytest and git. */
export const SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** Absolute path of an executable `name` on `searchPath`, or null. */
export function findExecutable(name, searchPath = process.env.PATH ?? SYSTEM_PATH) {
  for (const dir of searchPath.split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {}
  }
  return null;
}

function hasPytest() {
  const python = findExecutable("python3", SYSTEM_PATH);
  return python !== null && spawnSync(python, ["-c", "import pytest"], { stdio: "ignore" }).status === 0;
}

/**
 * What rollouts need: the sandbox runtime (bubblewrap, looked up on the server's PATH) and, in
 * the system directories sandboxes see, python3 with pytest (python tool, code and SWE graders)
 * and git (SWE repositories). `runtime` is RAAS_SANDBOX_RUNTIME.
 * Each requirement: `{ apt, label, present() }`, or `{ hint, label, present() }` when apt has none.
 */
export function rolloutRequirements({
  runtime = "bubblewrap",
  searchPath = process.env.PATH ?? SYSTEM_PATH,
} = {}) {
  const requirements = [];
  if (runtime === "bubblewrap") {
    requirements.push({
      apt: "bubblewrap",
      label: "bwrap (bubblewrap, the sandbox runtime)",
      present: () => findExecutable("bwrap", searchPath) !== null,
    });
  } else if (runtime === "apptainer") {
    requirements.push({
      hint: "install Apptainer (https://apptainer.org; not in Debian 12's archive)",
      label: "apptainer or singularity (the sandbox runtime)",
      present: () => ["apptainer", "singularity"].some((name) => findExecutable(name, searchPath) !== null),
    });
  }
  requirements.push(
    { apt: "python3", label: "python3", present: () => findExecutable("python3", SYSTEM_PATH) !== null },
    { apt: "python3-pytest", label: "pytest for the system python3", present: hasPytest },
    { apt: "git", label: "git", present: () => findExecutable("git", SYSTEM_PATH) !== null },
  );
  return requirements;
}

function hasPyYaml() {
  const python = findExecutable("python3", SYSTEM_PATH);
  return python !== null && spawnSync(python, ["-c", "import yaml"], { stdio: "ignore" }).status === 0;
}

/**
 * What tests run besides rollouts: for the deployment files in infra/ (scripts/infra-files.test.ts)
 * shellcheck, systemd-analyze and PyYAML for the system python3; openssl for the certificate of
 * the inference client's TLS test.
 */
export function infraTestRequirements(searchPath = process.env.PATH ?? SYSTEM_PATH) {
  return [
    {
      apt: "shellcheck",
      label: "shellcheck",
      present: () => findExecutable("shellcheck", searchPath) !== null,
    },
    {
      apt: "systemd",
      label: "systemd-analyze",
      present: () => findExecutable("systemd-analyze", searchPath) !== null,
    },
    { apt: "python3-yaml", label: "PyYAML for the system python3", present: hasPyYaml },
    { apt: "openssl", label: "openssl", present: () => findExecutable("openssl", searchPath) !== null },
  ];
}

/**
 * What the image tests use (packages/sandbox/test/support/test-images.ts): mmdebstrap builds a
 * Debian root filesystem from the archive, umoci and skopeo pack and unpack it as OCI, squashfs-tools
 * and siftool as a SIF, busybox-static makes an image with only /bin/sh. The image cache itself needs only umoci, skopeo and squashfs-tools.
 */
export function imageTestRequirements(searchPath = process.env.PATH ?? SYSTEM_PATH) {
  const tool = (apt, name, role) => ({
    apt,
    label: `${name} (${role})`,
    present: () => findExecutable(name, searchPath) !== null,
  });
  return [
    tool("mmdebstrap", "mmdebstrap", "builds the test images"),
    tool("umoci", "umoci", "OCI images"),
    tool("skopeo", "skopeo", "OCI and docker archives"),
    tool("squashfs-tools", "unsquashfs", "SIF images"),
    tool("siftool", "siftool", "builds the test SIF"),
    {
      apt: "busybox-static",
      label: "busybox (the busybox test image: a shell without bash or glibc)",
      present: () => existsSync("/bin/busybox"),
    },
  ];
}

/** The browser the Playwright e2e suite drives (Debian's chromium; browser downloads fail offline). */
export function e2eTestRequirements() {
  return [
    {
      apt: "chromium",
      label: "chromium (the e2e suite's browser)",
      present: () => existsSync("/usr/bin/chromium"),
    },
  ];
}

/** The command that installs Debian packages, as the current user would type it. */
export function aptInstallCommand(packages) {
  const sudo = process.getuid?.() === 0 ? "" : "sudo ";
  return `${sudo}apt-get install -y ${packages.join(" ")}`;
}

function runApt(aptGet, args, env, log) {
  log(`$ apt-get ${args.join(" ")}`);
  const result = spawnSync(aptGet, args, {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return result.status === 0;
}

/**
 * Makes sure every requirement is present. Missing apt packages are installed when running as
 * root with apt-get on `env.PATH` (unless `env.RAAS_NO_APT` is 1). Returns true when everything
 * is there; otherwise logs what is missing and the exact command(s) to run, and returns false.
 */
export function ensureSystemPackages(requirements, { label, env = process.env, log = console.error } = {}) {
  let missing = requirements.filter((requirement) => !requirement.present());
  if (missing.length === 0) return true;
  const aptNames = () => missing.filter((r) => r.apt).map((r) => r.apt);
  const aptGet = findExecutable("apt-get", env.PATH ?? SYSTEM_PATH);
  const mayInstall = process.getuid?.() === 0 && aptGet !== null && env.RAAS_NO_APT !== "1";
  if (mayInstall && aptNames().length > 0) {
    const names = aptNames();
    log(
      `[${label}] missing ${missing.map((r) => r.label).join(", ")}; running as root, so installing: apt-get install -y ${names.join(" ")}`,
    );
    // A fresh container has no package lists yet; an install without them finds nothing.
    if (runApt(aptGet, ["update"], env, log)) runApt(aptGet, ["install", "-y", ...names], env, log);
    missing = missing.filter((requirement) => !requirement.present());
    if (missing.length === 0) {
      log(`[${label}] installed ${names.join(", ")}`);
      return true;
    }
  }
  const lines = [`[${label}] cannot run rollouts here: missing ${missing.map((r) => r.label).join(", ")}.`];
  if (aptNames().length > 0) lines.push(`  Install with:  ${aptInstallCommand(aptNames())}`);
  for (const requirement of missing.filter((r) => !r.apt)) lines.push(`  ${requirement.hint}`);
  if (missing.some((r) => r.apt === "bubblewrap")) {
    lines.push("  (or RAAS_SANDBOX_RUNTIME=local: no isolation, for development only)");
  }
  lines.push("  Then run this again.");
  log(lines.join("\n"));
  return false;
}

/** PostgreSQL's cluster tools and configuration (Debian's `postgresql` package). */
export function hasPostgresInstalled() {
  return findExecutable("pg_ctlcluster", SYSTEM_PATH) !== null && existsSync("/etc/postgresql");
}
