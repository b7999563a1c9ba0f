import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config-from-env";
import { EnvError, parseServerEnv } from "../src/env";
import { loadServerEnvFiles } from "../src/env-files";

const FIXTURE_SPECS = fileURLToPath(
  new URL("../../../packages/handlers/data/swe/specs.json", import.meta.url),
);

/** The EnvError message of a failing step, or a failed expectation when it does not fail so. */
async function envErrorOf(step: () => unknown): Promise<string> {
  try {
    await step();
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as EnvError).message;
  }
  throw new Error("expected an EnvError");
}

const messageOf = (source: Record<string, string>) => {
  try {
    parseServerEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as EnvError).message;
  }
  throw new Error("expected an EnvError");
};

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
      pgliteMaintenance: {},
      waitMs: 60_000,
    });
    expect(
      configFromEnv(parseServerEnv({ DATABASE_URL: "postgres://db/x", RAAS_STORE_WAIT_MS: "0" })).store,
    ).toMatchObject({ waitMs: 0 });
    expect(() => parseServerEnv({ RAAS_STORE_WAIT_MS: "-1" })).toThrow(/RAAS_STORE_WAIT_MS/);
    const pglite = parseServerEnv({
      RAAS_PGLITE_CHECKPOINT_WAL_MB: "16",
      RAAS_PGLITE_VACUUM_EVERY_MS: "60000",
    });
    expect(configFromEnv(pglite).store).toMatchObject({
      kind: "db",
      pgliteMaintenance: { checkpointAfterWalBytes: 16 * 1024 * 1024, vacuumEveryMs: 60_000 },
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

  it("reads inference backends, default model, health interval and sandbox runtime", () => {
    const defaults = configFromEnv(parseServerEnv({}));
    expect(defaults.inference).toEqual({
      backends: [],
      defaultModelName: "Qwen/Qwen3-8B",
      healthCheckIntervalMs: 5_000,
      fairShare: {},
    });
    expect(defaults.sandbox?.runtime).toBe("bubblewrap");
    expect(defaults.agentHandlers).toEqual({});
    expect(defaults.model).toEqual({ kind: "qwen3" });

    const config = configFromEnv(
      parseServerEnv({
        RAAS_BACKENDS:
          "vllm=http://gpu-1:8000/, sglang=http://gpu-2:30000#Qwen/Qwen3-14B,http://10.0.0.3:8000,nemo-rl=https://n:9/v1",
        RAAS_MODEL: "Qwen/Qwen3-4B",
        RAAS_BACKEND_HEALTH_INTERVAL_MS: "250",
        RAAS_SANDBOX_RUNTIME: "local",
        PATH: "/opt/bin:/usr/bin",
      }),
    );
    expect(config.inference).toEqual({
      backends: [
        { kind: "vllm", baseUrl: "http://gpu-1:8000", modelName: null },
        { kind: "sglang", baseUrl: "http://gpu-2:30000", modelName: "Qwen/Qwen3-14B" },
        { kind: "vllm", baseUrl: "http://10.0.0.3:8000", modelName: null },
        { kind: "nemo-rl", baseUrl: "https://n:9/v1", modelName: null },
      ],
      defaultModelName: "Qwen/Qwen3-4B",
      healthCheckIntervalMs: 250,
      fairShare: {},
    });
    expect(config.sandbox).toEqual({ runtime: "local", searchPath: "/opt/bin:/usr/bin" });
  });

  it("RAAS_FAIR_SHARE (default true) turns fair sharing on for INIT admission and inference in-flight capacity alike", () => {
    const defaults = configFromEnv(parseServerEnv({}));
    expect(defaults.fairShare).toEqual({});
    expect(defaults.inference?.fairShare).toEqual({});
    const off = configFromEnv(parseServerEnv({ RAAS_FAIR_SHARE: "false" }));
    expect(off).not.toHaveProperty("fairShare");
    expect(off.inference).not.toHaveProperty("fairShare");
  });

  it("passes RAAS_INFERENCE_OUTAGE_BUDGET_MS to the pool; unset keeps the pool's default", () => {
    expect(configFromEnv(parseServerEnv({})).inference).not.toHaveProperty("outageBudgetMs");
    const config = configFromEnv(parseServerEnv({ RAAS_INFERENCE_OUTAGE_BUDGET_MS: "5000" }));
    expect(config.inference).toMatchObject({ outageBudgetMs: 5_000 });
    expect(configFromEnv(parseServerEnv({ RAAS_INFERENCE_OUTAGE_BUDGET_MS: "0" })).inference).toMatchObject({
      outageBudgetMs: 0,
    });
    expect(() => parseServerEnv({ RAAS_INFERENCE_OUTAGE_BUDGET_MS: "-1" })).toThrow(
      /RAAS_INFERENCE_OUTAGE_BUDGET_MS: expected at least 0/,
    );
    expect(() => parseServerEnv({ RAAS_INFERENCE_OUTAGE_BUDGET_MS: "a minute" })).toThrow(
      /RAAS_INFERENCE_OUTAGE_BUDGET_MS: expected a number/,
    );
  });

  it("passes RAAS_WORKER_LABELS to this process's worker and names a bad label", async () => {
    expect(configFromEnv(parseServerEnv({})).workers).toEqual({ labels: [] });
    const config = configFromEnv(parseServerEnv({ RAAS_WORKER_LABELS: "apptainer, gpu-a100" }));
    expect(config.workers).toEqual({ labels: ["apptainer", "gpu-a100"] });
    const message = await envErrorOf(() => parseServerEnv({ RAAS_WORKER_LABELS: "ok,bad label" }));
    expect(message).toContain('RAAS_WORKER_LABELS: "bad label" is not a label');
  });

  it("passes RAAS_SWE_TEST_TIMEOUT_MS to the swe handler; unset keeps the handler's default", () => {
    const withTimeout = configFromEnv(
      parseServerEnv({ RAAS_SWE_REPOS_DIR: "/data/repos", RAAS_SWE_TEST_TIMEOUT_MS: "20000" }),
    );
    expect(withTimeout.agentHandlers).toEqual({
      swe: { reposDir: "/data/repos", testTimeoutMs: 20_000 },
    });
    const without = configFromEnv(parseServerEnv({ RAAS_SWE_REPOS_DIR: "/data/repos" }));
    expect(without.agentHandlers).toEqual({ swe: { reposDir: "/data/repos" } });
    expect(() => parseServerEnv({ RAAS_SWE_TEST_TIMEOUT_MS: "0" })).toThrow(
      /RAAS_SWE_TEST_TIMEOUT_MS: .*\(got "0"\)/,
    );
    expect(() => parseServerEnv({ RAAS_SWE_TEST_TIMEOUT_MS: "soon" })).toThrow(
      /RAAS_SWE_TEST_TIMEOUT_MS: expected a number/,
    );
  });

  it("explains bad backend entries, an unknown sandbox runtime and a model without a chat format", () => {
    const backends = messageOf({ RAAS_BACKENDS: "tgi=http://a:1,gpu-3:8000,vllm=http://b:2#" });
    expect(backends).toContain(
      'RAAS_BACKENDS: "tgi=http://a:1": unknown kind "tgi", expected one of vllm, sglang, nemo-rl',
    );
    expect(backends).toContain(
      'RAAS_BACKENDS: "gpu-3:8000": expected [kind=]http(s)://host:port[#model], e.g. vllm=http://gpu-1:8000',
    );
    expect(backends).toContain('"vllm=http://b:2#": the model name after # is empty');
    const withPassword = messageOf({ RAAS_BACKENDS: "vllm=http://alice:hunter2@gpu-1:8000" });
    expect(withPassword).toContain(
      'RAAS_BACKENDS: "vllm=http://***@gpu-1:8000": the URL may not carry a user name or password',
    );
    expect(withPassword).not.toContain("hunter2");
    expect(messageOf({ RAAS_SANDBOX_RUNTIME: "docker" })).toContain("RAAS_SANDBOX_RUNTIME:");
    expect(messageOf({ RAAS_MODEL: "meta-llama/Llama-3-8B" })).toContain(
      "RAAS_TOKENIZER_DIR: required because RAAS_MODEL",
    );
    expect(
      configFromEnv(parseServerEnv({ RAAS_MODEL: "my-model", RAAS_CHAT_FORMAT: "qwen3" })).model,
    ).toEqual({ kind: "qwen3" });
  });

  it("RAAS_TOKENIZER_DIR makes the model's own files the family; gpt-oss names choose harmony", () => {
    const fromDir = parseServerEnv({
      RAAS_MODEL: "meta-llama/Llama-3.1-8B",
      RAAS_TOKENIZER_DIR: "/models/llama",
    });
    expect(configFromEnv(fromDir).model).toEqual({ kind: "tokenizer-dir", directory: "/models/llama" });
    expect(configFromEnv(parseServerEnv({ RAAS_MODEL: "openai/gpt-oss-20b" })).model).toEqual({
      kind: "gpt-oss",
    });
    expect(messageOf({ RAAS_TOKENIZER_DIR: "models/llama" })).toContain(
      "RAAS_TOKENIZER_DIR: expected an absolute path",
    );
    expect(messageOf({ RAAS_TOKENIZER_DIR: "/models/llama", RAAS_CHAT_FORMAT: "qwen3" })).toContain(
      "RAAS_CHAT_FORMAT: set it or RAAS_TOKENIZER_DIR, not both",
    );
    expect(messageOf({ RAAS_CHAT_FORMAT: "llama" })).toContain("RAAS_CHAT_FORMAT: expected qwen3 or gpt-oss");
  });

  it("loads RAAS_SWE_SPECS_FILE into the swe handler's specs and passes RAAS_SWE_IMAGE_PATTERN", async () => {
    const env = parseServerEnv({
      RAAS_SWE_REPOS_DIR: "/data/repos",
      RAAS_SWE_SPECS_FILE: FIXTURE_SPECS,
      RAAS_SWE_IMAGE_PATTERN: "/images/swe/{repo}__{version}.sif",
    });
    const config = configFromEnv(env, await loadServerEnvFiles(env));
    expect(config.agentHandlers).toEqual({
      swe: {
        reposDir: "/data/repos",
        repoSpecs: {
          "raas-fixtures/envkit@3.0": {
            setupCommands: ["python3 tools/gen_rates.py"],
            env: { ENVKIT_PROFILE: "test" },
          },
        },
        imagePattern: "/images/swe/{repo}__{version}.sif",
      },
    });
    const several = parseServerEnv({
      RAAS_SWE_REPOS_DIR: "/data/repos",
      RAAS_SWE_IMAGE_PATTERN: "/images/swe/{instance_id}.sif : /images/rootfs/{owner}/{name}:",
    });
    expect(several.RAAS_SWE_IMAGE_PATTERN).toEqual([
      "/images/swe/{instance_id}.sif",
      "/images/rootfs/{owner}/{name}",
    ]);
    expect(await loadServerEnvFiles(parseServerEnv({}))).toEqual({});
    // A caller that skips the files must not get a server that silently ignores them.
    expect(() => configFromEnv(env)).toThrow(/RAAS_SWE_SPECS_FILE is set/);
  });

  it("passes RAAS_HARNESS_CACHE on as where harness recipes are installed", () => {
    const config = configFromEnv(parseServerEnv({ RAAS_HARNESS_CACHE: "/var/cache/raas-harnesses" }));
    expect(config.agentHandlers).toEqual({ harnessCacheDir: "/var/cache/raas-harnesses" });
    expect(configFromEnv(parseServerEnv({})).agentHandlers).toEqual({});
  });

  it("stops on a missing or invalid specs file with one line naming the variable and the file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "raas-server-env-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const envWith = (file: string) => parseServerEnv({ RAAS_SWE_REPOS_DIR: dir, RAAS_SWE_SPECS_FILE: file });

    const missing = join(dir, "missing.json");
    const missingMessage = await envErrorOf(() => loadServerEnvFiles(envWith(missing)));
    expect(missingMessage).toMatch(
      /^invalid environment: RAAS_SWE_SPECS_FILE: .*missing\.json: not a readable JSON file/,
    );

    const broken = join(dir, "broken.json");
    writeFileSync(broken, '{ "acme/widgets": { "env": ');
    expect(await envErrorOf(() => loadServerEnvFiles(envWith(broken)))).toMatch(
      /^invalid environment: RAAS_SWE_SPECS_FILE: .*broken\.json: not a readable JSON file \(.+\)$/,
    );

    const wrong = join(dir, "wrong.json");
    writeFileSync(
      wrong,
      JSON.stringify({ "acme/widgets": { setupCommand: ["make"] }, widgets: {} }, null, 2),
    );
    const wrongMessage = await envErrorOf(() => loadServerEnvFiles(envWith(wrong)));
    expect(wrongMessage).toContain(`RAAS_SWE_SPECS_FILE: ${wrong}: acme/widgets: `);
    expect(wrongMessage).toContain("setupCommand");
    expect(wrongMessage).toContain("widgets: expected owner/name or owner/name@version");
    for (const message of [missingMessage, wrongMessage]) {
      expect(message).not.toContain("\n");
      expect(message).not.toMatch(/\bat .+:\d+:\d+/);
    }
  });

  it("rejects image patterns that are relative or use unknown placeholders, and swe options without a repos dir", async () => {
    const relative = await envErrorOf(() =>
      parseServerEnv({ RAAS_SWE_REPOS_DIR: "/r", RAAS_SWE_IMAGE_PATTERN: "images/{repo}.sif" }),
    );
    expect(relative).toContain('RAAS_SWE_IMAGE_PATTERN: "images/{repo}.sif": expected an absolute path');
    const unknown = await envErrorOf(() =>
      parseServerEnv({ RAAS_SWE_REPOS_DIR: "/r", RAAS_SWE_IMAGE_PATTERN: "/images/{repo}/{commit}.sif" }),
    );
    expect(unknown).toContain("RAAS_SWE_IMAGE_PATTERN: unknown placeholder {commit}");
    const orphaned = await envErrorOf(() =>
      parseServerEnv({ RAAS_SWE_SPECS_FILE: FIXTURE_SPECS, RAAS_SWE_IMAGE_PATTERN: "/images/{repo}.sif" }),
    );
    expect(orphaned).toContain("RAAS_SWE_SPECS_FILE: needs RAAS_SWE_REPOS_DIR");
    expect(orphaned).toContain("RAAS_SWE_IMAGE_PATTERN: needs RAAS_SWE_REPOS_DIR");
    expect(parseServerEnv({ RAAS_SWE_IMAGE_PATTERN: " " }).RAAS_SWE_IMAGE_PATTERN).toBeUndefined();
  });

  it("maps the sandbox limits onto the runtime's options and rejects bad values", async () => {
    expect(configFromEnv(parseServerEnv({})).sandbox).toEqual({
      runtime: "bubblewrap",
      searchPath: expect.any(String),
    });
    const config = configFromEnv(
      parseServerEnv({ RAAS_SANDBOX_TOTAL_CPU_SEC: "120", RAAS_SANDBOX_WORKSPACE_BYTES: "10737418240" }),
    );
    expect(config.sandbox).toMatchObject({
      runtime: "bubblewrap",
      defaultLimits: { totalCpuSec: 120 },
      workspaceSizeBytes: 10_737_418_240,
    });
    // Only the field that is set: the runtime keeps its other default limits.
    expect(Object.keys(config.sandbox?.defaultLimits ?? {})).toEqual(["totalCpuSec"]);
    expect(configFromEnv(parseServerEnv({ RAAS_SANDBOX_WARM_POOL: "8" })).sandbox?.warmPoolSize).toBe(8);
    expect(configFromEnv(parseServerEnv({ RAAS_SANDBOX_WARM_POOL: "0" })).sandbox?.warmPoolSize).toBe(0);
    expect(configFromEnv(parseServerEnv({ RAAS_SANDBOX_WARM_POOL: "Auto" })).sandbox?.warmPoolSize).toBe(
      "auto",
    );
    // Unset: the compose default (auto) applies.
    expect(configFromEnv(parseServerEnv({})).sandbox?.warmPoolSize).toBeUndefined();
    expect(await envErrorOf(() => parseServerEnv({ RAAS_SANDBOX_WARM_POOL: "-2" }))).toContain(
      'RAAS_SANDBOX_WARM_POOL: expected auto or a whole number from 0 to 1024 (got "-2")',
    );

    const bad = await envErrorOf(() =>
      parseServerEnv({ RAAS_SANDBOX_TOTAL_CPU_SEC: "lots", RAAS_SANDBOX_WORKSPACE_BYTES: "-1" }),
    );
    expect(bad).toContain('RAAS_SANDBOX_TOTAL_CPU_SEC: expected a number (got "lots")');
    expect(bad).toContain('RAAS_SANDBOX_WORKSPACE_BYTES: expected at least 1 (got "-1")');
    expect(await envErrorOf(() => parseServerEnv({ RAAS_SANDBOX_TOTAL_CPU_SEC: "1.5" }))).toContain(
      'RAAS_SANDBOX_TOTAL_CPU_SEC: expected a whole number (got "1.5")',
    );
    expect(
      await envErrorOf(() =>
        parseServerEnv({ RAAS_SANDBOX_RUNTIME: "local", RAAS_SANDBOX_WORKSPACE_BYTES: "1000000" }),
      ),
    ).toContain("RAAS_SANDBOX_WORKSPACE_BYTES: only the bubblewrap runtime bounds the workspace");
  });

  it("passes the image cache's directory and size cap to the sandbox runtime, bubblewrap only", async () => {
    expect(
      configFromEnv(parseServerEnv({ RAAS_IMAGE_CACHE_DIR: "/var/cache/raas-images" })).sandbox?.imageCache,
    ).toEqual({ dir: "/var/cache/raas-images" });
    expect(
      configFromEnv(parseServerEnv({ RAAS_IMAGE_CACHE_MAX_BYTES: "10737418240" })).sandbox?.imageCache,
    ).toEqual({ maxBytes: 10_737_418_240 });
    // Unset: the runtime's default cache.
    expect(configFromEnv(parseServerEnv({})).sandbox?.imageCache).toBeUndefined();
    const bad = await envErrorOf(() =>
      parseServerEnv({ RAAS_IMAGE_CACHE_DIR: "cache/images", RAAS_IMAGE_CACHE_MAX_BYTES: "0" }),
    );
    expect(bad).toContain('RAAS_IMAGE_CACHE_DIR: expected an absolute path (got "cache/images")');
    expect(bad).toContain('RAAS_IMAGE_CACHE_MAX_BYTES: expected at least 1 (got "0")');
    expect(
      await envErrorOf(() =>
        parseServerEnv({ RAAS_SANDBOX_RUNTIME: "local", RAAS_IMAGE_CACHE_DIR: "/images" }),
      ),
    ).toContain("RAAS_IMAGE_CACHE_DIR: only the bubblewrap runtime unpacks images into the cache");
  });
});
