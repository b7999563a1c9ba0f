import { describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config-from-env";
import { EnvError, parseServerEnv } from "../src/env";

describe("server env", () => {
  it("applies the documented defaults to an empty environment", () => {
    const env = parseServerEnv({});
    expect(env).toMatchObject({
      PORT: 8080,
      HOST: "127.0.0.1",
      RAAS_DATA_DIR: "./.raas",
      RAAS_STORE: "db",
      RAAS_REQUIRE_VIEWER_TOKEN: false,
      RAAS_MAX_BODY_BYTES: 1_048_576,
      LOG_LEVEL: "info",
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.RAAS_ADMIN_TOKEN).toBeUndefined();
  });

  it("coerces numbers and flags and maps them onto the server config", () => {
    const env = parseServerEnv({
      PORT: "0",
      RAAS_STORE: "memory",
      RAAS_TRAINER_TOKEN: "t",
      RAAS_REQUIRE_VIEWER_TOKEN: "yes",
      RAAS_RUN_CONCURRENCY: "12",
      RAAS_EVAL_TIMEOUT_MS: "5000",
      DATABASE_URL: "postgresql://localhost:5432/raas",
      UNRELATED: "ignored",
    });
    const config = configFromEnv(env);
    expect(config.port).toBe(0);
    expect(config.store).toEqual({ kind: "memory" });
    expect(config.auth).toEqual({ trainerToken: "t", requireViewerToken: true });
    expect(config.pools?.run).toEqual({ concurrency: 12 });
    expect(config.pools?.eval).toEqual({ timeoutMs: 5000 });
    expect(configFromEnv(parseServerEnv({ DATABASE_URL: "postgres://db/x" })).store).toEqual({
      kind: "db",
      dataDir: "./.raas",
      databaseUrl: "postgres://db/x",
    });
  });

  it("lists every invalid variable in one readable message and hides secrets", () => {
    let error: unknown;
    try {
      parseServerEnv({
        PORT: "eighty",
        RAAS_STORE: "redis",
        RAAS_REQUIRE_VIEWER_TOKEN: "maybe",
        DATABASE_URL: "mysql://u:secret@h/db",
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as EnvError).message;
    expect(message).toContain('PORT: expected a number (got "eighty")');
    expect(message).toContain("RAAS_STORE:");
    expect(message).toContain('"redis"');
    expect(message).toContain("RAAS_REQUIRE_VIEWER_TOKEN: expected true or false");
    expect(message).toContain("DATABASE_URL: expected a postgres:// or postgresql:// URL (value hidden)");
    expect(message).not.toContain("secret");
  });
});
