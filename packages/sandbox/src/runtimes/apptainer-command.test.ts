import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildApptainerArgs } from "./apptainer-command";
import { ApptainerRuntime } from "./apptainer-runtime";

const dirs = {
  root: "/b/sbx-1",
  workspace: "/b/sbx-1/workspace",
  run: "/b/sbx-1/run",
  socket: "/b/sbx-1/run/exec.sock",
};
const bundle = {
  dir: "/b/server-abc",
  nodePtyDir: "/repo/node_modules/node-pty",
  nodePath: "/usr/bin/node",
  bashPath: "/b/bin/bash",
};

describe("buildApptainerArgs", () => {
  it("builds the exact exec command with containment, binds and network isolation", () => {
    const args = buildApptainerArgs({
      image: "/images/raas-base.sif",
      workspaceHostDir: dirs.workspace,
      runHostDir: dirs.run,
      serverHostDir: bundle.dir,
      nodeInsidePath: "/usr/bin/node",
      isolateNetwork: true,
      env: { PATH: "/usr/bin:/bin", HOME: "/workspace" },
      maxProcesses: 128,
      prlimitPath: "/usr/bin/prlimit",
      serverArgs: ["CONFIG"],
    });
    expect(args).toEqual([
      "exec",
      "--containall",
      "--no-home",
      "--writable-tmpfs",
      "--cleanenv",
      "--net",
      "--network",
      "none",
      "--pwd",
      "/workspace",
      "--bind",
      "/b/sbx-1/workspace:/workspace",
      "--bind",
      "/b/sbx-1/run:/run/raas",
      "--bind",
      "/b/server-abc:/opt/raas/server:ro",
      "--env",
      "PATH=/usr/bin:/bin",
      "--env",
      "HOME=/workspace",
      "/images/raas-base.sif",
      "/usr/bin/prlimit",
      "--nproc=128",
      "--",
      "/usr/bin/node",
      "/opt/raas/server/exec-server.cjs",
      "CONFIG",
    ]);
  });

  it("drops network flags where the site forbids them and can bind the host's node-pty", () => {
    const args = buildApptainerArgs({
      image: "img.sif",
      workspaceHostDir: "/w",
      runHostDir: "/r",
      serverHostDir: "/s",
      nodePtyHostDir: "/p",
      nodeInsidePath: "node",
      isolateNetwork: false,
      env: {},
      prlimitPath: "/usr/bin/prlimit",
      serverArgs: [],
    });
    expect(args).not.toContain("--net");
    expect(args).toContain("/p:/opt/raas/node_modules/node-pty:ro");
    expect(args).not.toContain("/usr/bin/prlimit");
  });
});

describe("ApptainerRuntime.commandFor", () => {
  const unitBaseDir = mkdtempSync(join(tmpdir(), "raas-apptainer-unit-"));
  afterAll(() => rmSync(unitBaseDir, { recursive: true, force: true }));

  it("uses the configured binary and the spec's image, applies RLIMIT_NPROC only on request, and needs an image", () => {
    const runtime = new ApptainerRuntime({
      binaryPath: "/opt/apptainer/bin/apptainer",
      baseDir: unitBaseDir,
    });
    const plan = runtime.commandFor({
      spec: { image: "/img/x.sif" },
      limits: { maxProcesses: 99 },
      dirs,
      bundle,
      encodedConfig: "CFG",
    });
    expect(plan.command).toBe("/opt/apptainer/bin/apptainer");
    expect(plan.args[0]).toBe("exec");
    expect(plan.args).toContain("/img/x.sif");
    expect(plan.args.at(-1)).toBe("CFG");
    expect(plan.args).not.toContain("/usr/bin/prlimit");
    const limited = new ApptainerRuntime({
      baseDir: unitBaseDir,
      limitProcessesWithRlimit: true,
    });
    const limitedPlan = limited.commandFor({
      spec: { image: "/img/x.sif" },
      limits: { maxProcesses: 99 },
      dirs,
      bundle,
      encodedConfig: "CFG",
    });
    expect(limitedPlan.args).toContain("--nproc=99");
    expect(() => runtime.commandFor({ spec: {}, limits: {}, dirs, bundle, encodedConfig: "CFG" })).toThrow(
      /needs an image/,
    );
  });
});
