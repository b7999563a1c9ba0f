import type { HarnessRecipe, HarnessRecipeInput } from "./harness-recipe.types";

/** The model name the CLIs send; the gateway serves the job's model whatever they name. */
const MODEL = "raas-model";

const binOf = (input: HarnessRecipeInput, bin: string) => `${input.packageDir}/node_modules/.bin/${bin}`;

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * Qwen Code: OpenAI chat completions (streaming). It needs all three OPENAI_* variables set to
 * skip its auth dialog, and Node ≥ 20 (its CLI is a Node bundle).
 */
const QWEN_CODE: HarnessRecipe = {
  name: "qwen-code",
  npmPackage: "@qwen-code/qwen-code",
  version: "0.24.4",
  bin: "qwen",
  apiShape: "chat",
  needsNode: true,
  addressSpaceBytes: null,
  blocked: null,
  render: (input) => ({
    argv: [binOf(input, "qwen"), "-p", input.instruction, "--yolo"],
    env: {
      OPENAI_BASE_URL: `${input.gatewayUrl}/v1`,
      OPENAI_API_KEY: input.apiKey,
      OPENAI_MODEL: MODEL,
    },
    homeFiles: {
      ".qwen/settings.json": json({
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
      }),
    },
  }),
};

/**
 * Claude Code: Anthropic Messages (`HEAD /`, then streaming `POST /v1/messages?beta=true`). The
 * npm package ships a native binary. `--dangerously-skip-permissions` is refused as root, so the
 * tools it may use unasked are listed instead. It sends a Bash tool_use back with a leading
 * `cd <its cwd> && ` removed (and `\\;` as `\;`), an edit of the model's answer: the gateway's
 * chain splits after such a call. Its other answers come back as sampled (thinking blocks dropped).
 */
const CLAUDE_CODE: HarnessRecipe = {
  name: "claude-code",
  npmPackage: "@anthropic-ai/claude-code",
  version: "2.1.197",
  bin: "claude",
  apiShape: "messages",
  needsNode: false,
  addressSpaceBytes: null,
  blocked: null,
  render: (input) => ({
    argv: [
      binOf(input, "claude"),
      "-p",
      input.instruction,
      "--allowedTools",
      "Bash,Edit,Write,Read,Glob,Grep,LS,MultiEdit",
    ],
    env: {
      ANTHROPIC_BASE_URL: input.gatewayUrl,
      ANTHROPIC_API_KEY: input.apiKey,
      ANTHROPIC_MODEL: MODEL,
      DISABLE_TELEMETRY: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_ERROR_REPORTING: "1",
    },
    homeFiles: {},
  }),
};

/**
 * Codex: the OpenAI Responses API only (`wire_api = "chat"` is refused). Its npm launcher is a
 * Node script that starts the package's static binary. Update checks and analytics are off in
 * its config, or it calls out.
 */
const CODEX: HarnessRecipe = {
  name: "codex",
  npmPackage: "@openai/codex",
  version: "0.171.0",
  bin: "codex",
  apiShape: "responses",
  needsNode: true,
  addressSpaceBytes: null,
  blocked: null,
  render: (input) => ({
    argv: [
      binOf(input, "codex"),
      "exec",
      "--skip-git-repo-check",
      "--dangerously-bypass-approvals-and-sandbox",
      input.instruction,
    ],
    env: { CODEX_HOME: `${input.homeDir}/.codex`, RAAS_GATEWAY_KEY: input.apiKey },
    homeFiles: {
      ".codex/config.toml": [
        `model = "${MODEL}"`,
        `model_provider = "raas"`,
        "check_for_update_on_startup = false",
        "",
        "[analytics]",
        "enabled = false",
        "",
        "[model_providers.raas]",
        `name = "raas"`,
        `base_url = ${JSON.stringify(`${input.gatewayUrl}/v1`)}`,
        `env_key = "RAAS_GATEWAY_KEY"`,
        `wire_api = "responses"`,
        "",
      ].join("\n"),
    },
  }),
};

/**
 * opencode: OpenAI chat through its `@ai-sdk/openai-compatible` provider. The package's install
 * script puts its native (Bun-compiled) binary in place. It still tries to fetch plugin packages
 * from the npm registry and carries on when it cannot (no network here), and asks the model for
 * a title first (a call with no tools).
 */
const OPENCODE: HarnessRecipe = {
  name: "opencode",
  npmPackage: "opencode-ai",
  version: "1.18.33",
  bin: "opencode",
  apiShape: "chat",
  needsNode: false,
  // Bun's JavaScriptCore reserves its heaps up front: ~71 GiB of address space, ~6.7 GiB with the
  // gigacage off (a 4 GiB structure heap, 1 GiB of JIT, its allocator's arenas). Under a 4 GiB
  // RLIMIT_AS it crashed (SIGILL, "Illegal instruction") in 3 of 8 runs; with 16 GiB in 8 of 8 none.
  addressSpaceBytes: 16 * 1024 ** 3,
  blocked: null,
  render: (input) => ({
    argv: [binOf(input, "opencode"), "run", input.instruction],
    env: {
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      // JavaScriptCore's gigacage alone reserves ~64 GiB of address space.
      GIGACAGE_ENABLED: "0",
    },
    homeFiles: {
      ".config/opencode/opencode.json": json({
        model: `raas/${MODEL}`,
        autoupdate: false,
        share: "disabled",
        permission: { bash: "allow", edit: "allow" },
        provider: {
          raas: {
            npm: "@ai-sdk/openai-compatible",
            name: "RaaS gateway",
            options: { baseURL: `${input.gatewayUrl}/v1`, apiKey: input.apiKey },
            models: { [MODEL]: { name: MODEL } },
          },
        },
      }),
    },
  }),
};

/** The shipped recipes, by name. */
export const HARNESS_RECIPES = {
  "qwen-code": QWEN_CODE,
  "claude-code": CLAUDE_CODE,
  codex: CODEX,
  opencode: OPENCODE,
} as const satisfies Record<string, HarnessRecipe>;

type THarnessRecipeName = keyof typeof HARNESS_RECIPES;

export const HARNESS_RECIPE_NAMES = Object.keys(HARNESS_RECIPES) as [
  THarnessRecipeName,
  ...THarnessRecipeName[],
];
