import { describe, expect, it } from "vitest";
import { type BubblewrapCommandInput, buildBubblewrapArgs } from "./bubblewrap-command";

const input: BubblewrapCommandInput = {
  bwrapPath: "bwrap",
  rootfs: "host",
  rootfsEntries: [
    { name: "usr", kind: "dir" },
    { name: "bin", kind: "symlink", target: "usr/bin" },
  ],
  hostEtcFiles: ["/etc/passwd"],
  workspaceHostDir: "/b/sbx/workspace",
  runHostDir: "/b/sbx/run",
  serverHostDir: "/b/server-1",
  nodePtyHostDir: "/repo/node_modules/node-pty",
  nodeHostPath: "/usr/bin/node",
  tmpSizeBytes: 1024,
  shmSizeBytes: 2048,
  bindHostProc: false,
  disableUserNamespaces: false,
  insideUid: 1000,
  insideGid: 1000,
  env: { PATH: "/usr/bin" },
  maxProcesses: 64,
  prlimitPath: "/usr/bin/prlimit",
  serverArgs: ["CONFIG"],
};

describe("buildBubblewrapArgs", () => {
  it("builds the exact isolated command line", () => {
    expect(buildBubblewrapArgs(input)).toEqual([
      "--unshare-all",
      "--die-with-parent",
      "--new-session",
      "--hostname",
      "sandbox",
      "--ro-bind",
      "/usr",
      "/usr",
      "--symlink",
      "usr/bin",
      "/bin",
      "--ro-bind-try",
      "/etc/passwd",
      "/etc/passwd",
      "--proc",
      "/proc",
      "--dev",
      "/dev",
      "--size",
      "2048",
      "--tmpfs",
      "/dev/shm",
      "--size",
      "1024",
      "--tmpfs",
      "/tmp",
      "--remount-ro",
      "/dev",
      "--bind",
      "/b/sbx/workspace",
      "/workspace",
      "--bind",
      "/b/sbx/run",
      "/run/raas",
      "--ro-bind",
      "/b/server-1",
      "/opt/raas/server",
      "--ro-bind",
      "/repo/node_modules/node-pty",
      "/opt/raas/node_modules/node-pty",
      "--ro-bind",
      "/usr/bin/node",
      "/opt/raas/bin/node",
      "--remount-ro",
      "/",
      "--chdir",
      "/workspace",
      "--uid",
      "1000",
      "--gid",
      "1000",
      "--clearenv",
      "--setenv",
      "PATH",
      "/usr/bin",
      "--",
      "/usr/bin/prlimit",
      "--nproc=64",
      "--",
      "/opt/raas/bin/node",
      "/opt/raas/server/exec-server.cjs",
      "CONFIG",
    ]);
  });

  it("forbids user namespaces inside when no tool jail needs them", () => {
    const args = buildBubblewrapArgs({ ...input, disableUserNamespaces: true });
    expect(args.slice(0, 7)).toEqual([
      "--unshare-all",
      "--die-with-parent",
      "--new-session",
      "--hostname",
      "sandbox",
      "--unshare-user",
      "--disable-userns",
    ]);
    expect(buildBubblewrapArgs(input)).not.toContain("--disable-userns");
  });

  it("binds a rootfs image's entries instead of the host's and omits prlimit without a process limit", () => {
    const { maxProcesses: _omit, ...rest } = input;
    const args = buildBubblewrapArgs({ ...rest, rootfs: "/images/debian", hostEtcFiles: [] });
    expect(args).toContain("/images/debian/usr");
    expect(args.join(" ")).not.toContain("/etc/passwd");
    expect(args).not.toContain("/usr/bin/prlimit");
    expect(args.slice(-3)).toEqual(["/opt/raas/bin/node", "/opt/raas/server/exec-server.cjs", "CONFIG"]);
  });

  it("binds a spec's read-only paths before the root is remounted read-only", () => {
    const args = buildBubblewrapArgs({
      ...input,
      readOnlyBinds: [{ hostPath: "/cache/codex@1", sandboxPath: "/opt/raas-harness/package" }],
    });
    const at = args.indexOf("/cache/codex@1");
    expect(args.slice(at - 1, at + 2)).toEqual(["--ro-bind", "/cache/codex@1", "/opt/raas-harness/package"]);
    expect(at).toBeLessThan(args.lastIndexOf("--remount-ro"));
  });

  it("runs the host's node through its loader and binds the host's programs, for an image that cannot load node", () => {
    const args = buildBubblewrapArgs({
      ...input,
      rootfs: "/images/busybox",
      nodeHostPath: "/b/sbx/host-node",
      nodeArgs: ["--library-path", "/opt/raas/host-programs/lib", "/opt/raas/host-programs/libexec/node"],
      hostProgramsHostDir: "/tmp/raas-host-tools-0/tools-v2-abc",
    });
    const at = args.indexOf("/tmp/raas-host-tools-0/tools-v2-abc");
    expect(args.slice(at - 1, at + 2)).toEqual([
      "--ro-bind",
      "/tmp/raas-host-tools-0/tools-v2-abc",
      "/opt/raas/host-programs",
    ]);
    expect(args.slice(args.indexOf("/b/sbx/host-node") - 1, args.indexOf("/b/sbx/host-node") + 2)).toEqual([
      "--ro-bind",
      "/b/sbx/host-node",
      "/opt/raas/bin/node",
    ]);
    expect(args.slice(-6)).toEqual([
      "/opt/raas/bin/node",
      "--library-path",
      "/opt/raas/host-programs/lib",
      "/opt/raas/host-programs/libexec/node",
      "/opt/raas/server/exec-server.cjs",
      "CONFIG",
    ]);
  });
});
