import { DEFAULT_DATA_DIR, DEFAULT_SERVER_URL } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { loadCliEnv } from "../src/env";

describe("CLI env defaults", () => {
  it("point at the server's default address and data directory (owned by @raas/shared)", () => {
    expect(loadCliEnv({})).toMatchObject({ RAAS_URL: DEFAULT_SERVER_URL, RAAS_DATA_DIR: DEFAULT_DATA_DIR });
    expect(DEFAULT_SERVER_URL).toBe("http://127.0.0.1:8080");
  });
});
