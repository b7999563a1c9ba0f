// Every deployment file in infra/ parses and lints with the tool its format has: bash -n and
// shellcheck for scripts, systemd-analyze verify for units, a YAML parser (PyYAML) for the
// Prometheus and compose files. A missing tool fails the test with the line that installs it.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const infra = join(root, "infra");
const SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

const all = filesUnder(infra);
const scripts = all.filter((file) => /\.(sbatch|sh)$/.test(file));
const units = all.filter((file) => file.endsWith(".service"));

/** Runs a tool; a missing binary throws with the install command instead of a bare ENOENT. */
function runTool(command: string, args: string[], install: string, env?: Record<string, string>) {
  const result = spawnSync(command, args, { cwd: root, encoding: "utf8", env: { ...process.env, ...env } });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT")
    throw new Error(`${command} is not installed; install it with: ${install}`);
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
}

/** Parses a YAML file with PyYAML and returns it as JSON data. */
function parseYaml(file: string): unknown {
  const program = "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))";
  // The system python3 (where apt installs PyYAML), not one a version manager put first on PATH.
  const result = runTool("python3", ["-c", program, file], "apt-get install -y python3 python3-yaml", {
    PATH: SYSTEM_PATH,
  });
  if (result.output.includes("No module named 'yaml'"))
    throw new Error("PyYAML is missing; install it with: apt-get install -y python3-yaml");
  expect(result.status, result.output).toBe(0);
  return JSON.parse(result.output);
}

describe("infra/ deployment files", () => {
  it("has the scripts and units it documents", () => {
    const names = all.map((file) => relative(infra, file));
    expect(names).toEqual(
      expect.arrayContaining([
        "slurm/raas-cluster.sbatch",
        "slurm/raas-server.sbatch",
        "systemd/raas-server.service",
        "systemd/raas-worker@.service",
        "prometheus/prometheus.yml",
        "compose/compose.yaml",
      ]),
    );
    for (const dir of ["slurm", "systemd", "prometheus", "compose"])
      expect(names, `${dir}/README.md`).toContain(`${dir}/README.md`);
  });

  it.each(scripts.map((file) => [relative(root, file), file]))(
    "%s passes bash -n and shellcheck",
    (_, file) => {
      const syntax = runTool("bash", ["-n", file], "apt-get install -y bash");
      expect(syntax.status, syntax.output).toBe(0);
      const lint = runTool("shellcheck", ["--shell=bash", file], "apt-get install -y shellcheck");
      expect(lint.output).toBe("");
      expect(lint.status).toBe(0);
    },
  );

  it("systemd units verify without a warning", () => {
    // verify exits 0 on settings it ignores (a misspelt Type=), so its output must be empty too.
    const result = runTool("systemd-analyze", ["verify", ...units], "apt-get install -y systemd");
    expect(result.output).toBe("");
    expect(result.status).toBe(0);
  });

  it("the Prometheus config scrapes the server, the workers and vLLM", () => {
    const config = parseYaml(join(infra, "prometheus/prometheus.yml")) as {
      scrape_configs: Array<{ job_name: string; file_sd_configs?: Array<{ files: string[] }> }>;
    };
    const jobs = new Map(config.scrape_configs.map((job) => [job.job_name, job]));
    expect([...jobs.keys()]).toEqual(["raas-server", "raas-worker", "vllm"]);
    expect(jobs.get("raas-worker")?.file_sd_configs?.[0]?.files).toEqual(["targets/workers-*.json"]);
    expect(jobs.get("vllm")?.file_sd_configs?.[0]?.files).toEqual(["targets/vllm-*.json"]);
    for (const example of ["workers.json.example", "vllm.json.example"]) {
      const groups = JSON.parse(readFileSync(join(infra, "prometheus/targets", example), "utf8")) as Array<{
        targets: string[];
      }>;
      expect(groups[0]?.targets.every((target) => /^[\w.-]+:\d+$/.test(target))).toBe(true);
    }
  });

  it("the compose file declares PostgreSQL and Redis with health checks", () => {
    const compose = parseYaml(join(infra, "compose/compose.yaml")) as {
      services: Record<string, { image: string; healthcheck?: { test: string[] } }>;
    };
    expect(Object.keys(compose.services).sort()).toEqual(["postgres", "redis"]);
    expect(compose.services.postgres?.image).toMatch(/^postgres:/);
    expect(compose.services.redis?.image).toMatch(/^redis:/);
    for (const service of Object.values(compose.services))
      expect(service.healthcheck?.test.length).toBeGreaterThan(0);
  });
});
