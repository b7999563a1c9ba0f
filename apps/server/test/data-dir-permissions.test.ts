import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../src/server";

const modeOf = (path: string) => lstatSync(path).mode & 0o777;

describe("the embedded data directory is owner-only", () => {
  const root = mkdtempSync(join(tmpdir(), "raas-server-perms-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("tightens an existing wide data directory and admin-token file at start, and creates PGlite's 0700", async () => {
    const dataDir = join(root, ".raas");
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, "admin-token"), "raas_admin_x\n");
    chmodSync(join(dataDir, "admin-token"), 0o644);
    const running = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      store: { kind: "db", dataDir },
    });
    try {
      expect(running.storeKind).toBe("pglite");
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(join(dataDir, "admin-token"))).toBe(0o600);
      expect(modeOf(join(dataDir, "pglite"))).toBe(0o700);
      expect(modeOf(join(dataDir, "pglite", "PG_VERSION")) & 0o077).toBe(0);
    } finally {
      await running.close({ graceMs: 0 });
    }
  });
});
