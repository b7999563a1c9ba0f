import type { SandboxReadOnlyBind } from "@raas/engine";
import type { HarnessRecipe } from "./harness-recipe.types";

/** Where a recipe's installed package and the node runtime appear inside the sandbox (read-only). */
const MOUNT = "/opt/raas-harness";
const PACKAGE_DIR = `${MOUNT}/package`;
const NODE_BIN_DIR = `${MOUNT}/node/bin`;
/**
 * The loopback port the gateway is forwarded to inside the sandbox: fixed, because a CLI's
 * config file must name the URL before it starts. The sandbox has its own network namespace.
 */
export const RECIPE_GATEWAY_PORT = 41_434;
/** PATH of the sandbox's programs (the sandbox runtime's own), after the harness's node. */
const SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** What a runner needs to start a harness: argv, variables, files in the harness directory. */
export interface HarnessLaunch {
  argv: readonly string[];
  env: Record<string, string>;
  /** Files by path relative to the harness directory. */
  files: Record<string, string>;
  /** The harness's address-space limit, raised above the sandbox's (a recipe's `addressSpaceBytes`). */
  addressSpaceBytes?: number;
}

/** The read-only binds a recipe's sandbox needs: the installed package, and node when it runs on it. */
export function recipeBinds(
  recipe: HarnessRecipe,
  installedDir: string,
  nodePath: string,
): SandboxReadOnlyBind[] {
  const binds = [{ hostPath: installedDir, sandboxPath: PACKAGE_DIR }];
  if (recipe.needsNode) binds.push({ hostPath: nodePath, sandboxPath: `${NODE_BIN_DIR}/node` });
  return binds;
}

/**
 * A recipe rendered for one run: its home (config files) under the harness directory, which is
 * removed after the run, and the gateway at {@link RECIPE_GATEWAY_PORT}.
 */
export function recipeLaunch(
  recipe: HarnessRecipe,
  run: { instruction: string; apiKey: string; harnessDir: string },
): HarnessLaunch {
  const homeDir = `${run.harnessDir}/home`;
  const rendered = recipe.render({
    gatewayUrl: `http://127.0.0.1:${RECIPE_GATEWAY_PORT}`,
    apiKey: run.apiKey,
    instruction: run.instruction,
    packageDir: PACKAGE_DIR,
    homeDir,
  });
  const files: Record<string, string> = {};
  for (const [path, content] of Object.entries(rendered.homeFiles)) files[`home/${path}`] = content;
  return {
    argv: rendered.argv,
    env: {
      ...rendered.env,
      HOME: homeDir,
      XDG_CONFIG_HOME: `${homeDir}/.config`,
      XDG_CACHE_HOME: `${homeDir}/.cache`,
      XDG_DATA_HOME: `${homeDir}/.local/share`,
      PATH: recipe.needsNode ? `${NODE_BIN_DIR}:${SYSTEM_PATH}` : SYSTEM_PATH,
      // With its trap handler V8 reserves guard regions of ~10 GiB for each WebAssembly memory,
      // which the sandbox's address-space limit (RLIMIT_AS) refuses: node's own fetch (undici's
      // llhttp is WebAssembly) then fails as "fetch failed" before any request is sent.
      ...(recipe.needsNode && { NODE_OPTIONS: "--disable-wasm-trap-handler" }),
    },
    files,
    ...(recipe.addressSpaceBytes !== null && { addressSpaceBytes: recipe.addressSpaceBytes }),
  };
}
