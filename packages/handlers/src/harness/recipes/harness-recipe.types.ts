/** The API shape a harness speaks to the gateway. */
type HarnessApiShape = "chat" | "messages" | "responses";

/** What a recipe is rendered for: where the gateway is and what to do. */
export interface HarnessRecipeInput {
  /** The gateway's base URL inside the sandbox, without `/v1` (`http://127.0.0.1:<port>`). */
  gatewayUrl: string;
  /** The key the harness sends (the bridge's; the gateway ignores it). */
  apiKey: string;
  /** The task's instruction, passed to the CLI as its prompt. */
  instruction: string;
  /** Where the installed package is inside the sandbox (its `node_modules/.bin` holds the CLI). */
  packageDir: string;
  /** The CLI's home directory inside the sandbox (its config files go there; removed after the run). */
  homeDir: string;
}

/** A recipe rendered for one run. */
interface RenderedHarnessRecipe {
  argv: string[];
  /** Variables set for the CLI (besides PATH and HOME, which the runner sets). */
  env: Record<string, string>;
  /** Config files by path relative to the CLI's home directory. */
  homeFiles: Record<string, string>;
}

/** One harness CLI, pinned: how it is installed, reached and run headless and offline. */
export interface HarnessRecipe {
  name: string;
  /** npm package and its exact version. */
  npmPackage: string;
  version: string;
  /** The executable under `node_modules/.bin`. */
  bin: string;
  apiShape: HarnessApiShape;
  /** The CLI (or its launcher) is a Node program: the host's node is mounted into the sandbox. */
  needsNode: boolean;
  /**
   * Address space its runtime reserves up front, in bytes, when that exceeds what the sandbox's
   * per-process limit (RLIMIT_AS, its `memoryBytes`) allows: the CLI runs with the limit raised to
   * this (the sandbox's memory bound still holds). Null when the default limit does.
   */
  addressSpaceBytes: number | null;
  /** What keeps it from running offline here, if anything (a licence prompt, a login, a network call). */
  blocked: string | null;
  render(input: HarnessRecipeInput): RenderedHarnessRecipe;
}
