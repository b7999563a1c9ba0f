import type { RaasClient } from "./client";

/** What a command's action gets from the program: the API client and a way to set the exit status. */
export interface CliContext {
  /** The API client, made on first use from --url/--token and the environment. */
  client(): RaasClient;
  /** The exit status of the command that ran (0 unless an action sets it). */
  setExitCode(code: number): void;
}
