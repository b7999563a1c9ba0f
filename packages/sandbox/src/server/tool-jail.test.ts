import { describe, expect, it } from "vitest";
import { jailArgv, type ToolJailConfig } from "./tool-jail";

const JAIL: ToolJailConfig = {
  bwrapPath: "/usr/bin/bwrap",
  uid: 1000,
  gid: 1000,
  hiddenDirs: ["/run/raas"],
  readOnlyDirs: ["/run/raas/channel"],
  execTmpSizeBytes: 8192,
};

/** The values that follow each occurrence of `flag`. */
function after(args: string[], flag: string): string[] {
  return args.flatMap((arg, index) => (arg === flag ? [args[index + 1] as string] : []));
}

describe("jailArgv", () => {
  it("leaves no writable tmpfs of unset size and no way to mount one", () => {
    const args = jailArgv(JAIL, ["pytest"], {
      cwd: "/workspace",
      workspaceRoot: "/workspace",
      interactive: false,
    });
    expect(args).toContain("--disable-userns");
    // Every tmpfs has a size; /dev and the hiding tmpfs become read-only after their mounts.
    const tmpfsAt = args.flatMap((arg, index) => (arg === "--tmpfs" ? [index] : []));
    for (const index of tmpfsAt) expect(args[index - 2]).toBe("--size");
    expect(after(args, "--tmpfs")).toEqual(["/tmp", "/run/raas"]);
    expect(after(args, "--size")).toEqual(["8192", "4096"]);
    expect(after(args, "--remount-ro")).toEqual(["/dev", "/run/raas"]);
    expect(args.indexOf("--remount-ro")).toBeGreaterThan(args.indexOf("--dev"));
    expect(args.lastIndexOf("--remount-ro")).toBeGreaterThan(args.indexOf("--ro-bind"));
    expect(args.slice(-2)).toEqual(["--", "pytest"]);
  });

  it("gives an interactive session the sandbox's /tmp, not one of its own", () => {
    const args = jailArgv(JAIL, ["bash"], {
      cwd: "/workspace",
      workspaceRoot: "/workspace",
      interactive: true,
    });
    expect(after(args, "--tmpfs")).toEqual(["/run/raas"]);
    expect(args).not.toContain("--new-session");
  });
});
