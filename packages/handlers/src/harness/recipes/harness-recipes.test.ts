import { describe, expect, it } from "vitest";
import { harnessPayloadSchema } from "../harness-payload.schema";
import { HARNESS_RECIPE_NAMES, HARNESS_RECIPES } from "./harness-recipes";
import { RECIPE_GATEWAY_PORT, recipeBinds, recipeLaunch } from "./recipe-launch";

const RUN = {
  instruction: "Fix the failing test.",
  apiKey: "gw_key",
  harnessDir: "/workspace/.raas-harness",
};
const GATEWAY = `http://127.0.0.1:${RECIPE_GATEWAY_PORT}`;
const BIN_DIR = "/opt/raas-harness/package/node_modules/.bin";

describe("harness recipes", () => {
  it("pins every recipe to an exact npm version", () => {
    expect(HARNESS_RECIPE_NAMES).toEqual(["qwen-code", "claude-code", "codex", "opencode"]);
    for (const recipe of Object.values(HARNESS_RECIPES)) {
      expect(recipe.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(recipe.npmPackage).not.toMatch(/@\d/);
    }
  });

  it("qwen-code: chat completions through the OPENAI_* variables, usage statistics off", () => {
    const launch = recipeLaunch(HARNESS_RECIPES["qwen-code"], RUN);
    expect(launch.argv).toEqual([`${BIN_DIR}/qwen`, "-p", RUN.instruction, "--yolo"]);
    expect(launch.env).toMatchObject({
      OPENAI_BASE_URL: `${GATEWAY}/v1`,
      OPENAI_API_KEY: "gw_key",
      OPENAI_MODEL: "raas-model",
      HOME: "/workspace/.raas-harness/home",
      PATH: expect.stringMatching(/^\/opt\/raas-harness\/node\/bin:/),
      NODE_OPTIONS: "--disable-wasm-trap-handler",
    });
    const settings = JSON.parse(launch.files["home/.qwen/settings.json"] ?? "{}");
    expect(settings.privacy).toEqual({ usageStatisticsEnabled: false });
  });

  it("claude-code: Messages at the gateway's root, its traffic and updater off, tools allowed by name", () => {
    const launch = recipeLaunch(HARNESS_RECIPES["claude-code"], RUN);
    expect(launch.argv.slice(0, 4)).toEqual([`${BIN_DIR}/claude`, "-p", RUN.instruction, "--allowedTools"]);
    expect(launch.argv[4]).toContain("Bash");
    expect(launch.env).toMatchObject({
      ANTHROPIC_BASE_URL: GATEWAY,
      ANTHROPIC_API_KEY: "gw_key",
      DISABLE_TELEMETRY: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_ERROR_REPORTING: "1",
    });
    // A native binary: no node on its PATH.
    expect(launch.env.PATH).not.toContain("/opt/raas-harness/node");
    expect(launch.files).toEqual({});
  });

  it("codex: a Responses provider in CODEX_HOME's config, update checks and analytics off", () => {
    const launch = recipeLaunch(HARNESS_RECIPES.codex, RUN);
    expect(launch.argv).toEqual([
      `${BIN_DIR}/codex`,
      "exec",
      "--skip-git-repo-check",
      "--dangerously-bypass-approvals-and-sandbox",
      RUN.instruction,
    ]);
    expect(launch.env).toMatchObject({
      CODEX_HOME: "/workspace/.raas-harness/home/.codex",
      RAAS_GATEWAY_KEY: "gw_key",
    });
    const config = launch.files["home/.codex/config.toml"] ?? "";
    expect(config).toContain(`base_url = "${GATEWAY}/v1"`);
    expect(config).toContain('wire_api = "responses"');
    expect(config).toContain('env_key = "RAAS_GATEWAY_KEY"');
    expect(config).toContain("check_for_update_on_startup = false");
    expect(config).toMatch(/\[analytics\]\nenabled = false/);
  });

  it("opencode: an openai-compatible provider at the gateway, bash allowed, models fetch off", () => {
    const launch = recipeLaunch(HARNESS_RECIPES.opencode, RUN);
    expect(launch.argv).toEqual([`${BIN_DIR}/opencode`, "run", RUN.instruction]);
    expect(launch.env).toMatchObject({
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      GIGACAGE_ENABLED: "0",
      XDG_CONFIG_HOME: "/workspace/.raas-harness/home/.config",
    });
    // Its runtime reserves more address space than the sandbox's RLIMIT_AS: raised for it alone.
    expect(launch.addressSpaceBytes).toBe(16 * 1024 ** 3);
    for (const other of ["qwen-code", "claude-code", "codex"] as const) {
      expect(recipeLaunch(HARNESS_RECIPES[other], RUN)).not.toHaveProperty("addressSpaceBytes");
    }
    const config = JSON.parse(launch.files["home/.config/opencode/opencode.json"] ?? "{}");
    expect(config.provider.raas.options.baseURL).toBe(`${GATEWAY}/v1`);
    expect(config.permission.bash).toBe("allow");
    expect(config.model).toBe("raas/raas-model");
  });

  it("mounts the installed package, and node only for the recipes that run on it", () => {
    expect(recipeBinds(HARNESS_RECIPES["claude-code"], "/cache/claude@2", "/usr/bin/node")).toEqual([
      { hostPath: "/cache/claude@2", sandboxPath: "/opt/raas-harness/package" },
    ]);
    expect(recipeBinds(HARNESS_RECIPES["qwen-code"], "/cache/qwen@0", "/usr/bin/node")).toEqual([
      { hostPath: "/cache/qwen@0", sandboxPath: "/opt/raas-harness/package" },
      { hostPath: "/usr/bin/node", sandboxPath: "/opt/raas-harness/node/bin/node" },
    ]);
  });
});

describe("a harness payload naming a recipe", () => {
  const target = {
    kind: "math",
    payloadSchema: { safeParse: (value: unknown) => ({ success: true as const, data: value }) },
    runWithAgent: async () => ({}),
  };
  // biome-ignore lint/suspicious/noExplicitAny: a stand-in handler with only what the schema reads
  const schema = harnessPayloadSchema([target as any]);

  it("accepts a recipe instead of a command", () => {
    const parsed = schema.parse({ task: { kind: "math", payload: {} }, recipe: "codex" });
    expect(parsed.recipe).toBe("codex");
  });

  it("refuses an unknown recipe, listing the recipes", () => {
    const result = schema.safeParse({ task: { kind: "math", payload: {} }, recipe: "aider" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'no harness recipe "aider": the recipes are qwen-code, claude-code, codex, opencode',
    );
  });

  it("refuses a recipe and a command together", () => {
    const result = schema.safeParse({ task: { kind: "math", payload: {} }, recipe: "codex", command: ["x"] });
    expect(result.error?.issues.map((issue) => issue.message)).toContain(
      "give a `command` or a `recipe`, not both",
    );
  });
});
