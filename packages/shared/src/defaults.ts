// Defaults that more than one app (or a script) needs. Each is owned here and imported — an
// env.ts, an option's fallback and a script never repeat the literal.

/** The policy model a backend serves when its registration names none (`RAAS_MODEL`). */
export const DEFAULT_MODEL_NAME = "Qwen/Qwen3-8B";

/** The inference simulator's model name: the default model, labelled as the test double it is. */
export const SIMULATED_MODEL_NAME = `${DEFAULT_MODEL_NAME} (simulated)`;

/** Interface the control plane listens on by default (`HOST`): this machine only. */
export const DEFAULT_SERVER_HOST = "127.0.0.1";

/** TCP port of the control plane (`PORT`). */
export const DEFAULT_SERVER_PORT = 8080;

/** Where clients (CLI, dashboard proxy) find the control plane by default (`RAAS_URL`, `RAAS_SERVER_URL`). */
export const DEFAULT_SERVER_URL = `http://${DEFAULT_SERVER_HOST}:${DEFAULT_SERVER_PORT}`;

/** Largest request body the control plane accepts, in bytes (`RAAS_MAX_BODY_BYTES`); the dashboard's proxy uses the same. */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

/** Longest a single `jobs.wait` may block, in ms. Proxies in front of the server wait a little longer. */
export const MAX_JOB_WAIT_MS = 60_000;

/** Directory of embedded data and the saved admin token (`RAAS_DATA_DIR`), relative to the working directory. */
export const DEFAULT_DATA_DIR = "./.raas";
