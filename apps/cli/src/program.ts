import { DEFAULT_DATA_DIR, DEFAULT_SERVER_URL } from "@raas/shared";
import { Command } from "commander";
import type { CliContext } from "./cli-context";
import { declareCompletion } from "./commands/completion.command";
import { declareDemo } from "./commands/demo.command";
import { declareEnv } from "./commands/env.command";
import { declareEval } from "./commands/eval-swe.command";
import { declareExport } from "./commands/export.command";
import { declareJobs } from "./commands/jobs.command";
import { declareModel } from "./commands/model.command";
import { declareRuns } from "./commands/runs.command";
import { declareServe } from "./commands/serve.command";
import { declareStatus } from "./commands/status.command";
import { declareSteps } from "./commands/steps.command";
import { declareSubmit } from "./commands/submit.command";
import { declareWorker } from "./commands/worker.command";
import { declareWorkers } from "./commands/workers.command";

/** Where commander writes: the process's streams, or a test's buffers. */
export interface ProgramOutput {
  writeOut(text: string): void;
  writeErr(text: string): void;
}

/** The global options, read by the client once a command runs. */
export interface TGlobalOptions {
  url?: string;
  token?: string;
}

/**
 * The whole `raas` command line: one declaration per command (help, completion and parsing all
 * come from it). Errors are one line; commander throws instead of exiting (see `runCli`).
 */
export function buildProgram(context: CliContext, version: string, output: ProgramOutput): Command {
  const program = new Command("raas")
    .description("Rollout-as-a-Service command line")
    .version(version)
    .option("--url <url>", `control-plane URL (env RAAS_URL, default ${DEFAULT_SERVER_URL})`)
    .option(
      "--token <token>",
      `bearer token (env RAAS_TOKEN, default: the admin token \`npm start\` saved in ${DEFAULT_DATA_DIR}/)`,
    )
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({
      writeOut: (text) => output.writeOut(text),
      writeErr: (text) => output.writeErr(text),
      // "error: unknown option '--jsn'\n(Did you mean --json?)" becomes one line.
      outputError: (text, write) => write(`${text.trimEnd().replace(/\n+/g, " ")}\n`),
    })
    .showSuggestionAfterError()
    .exitOverride();
  for (const declare of [
    declareServe,
    declareWorker,
    declareSubmit,
    declareStatus,
    declareJobs,
    declareExport,
    declareEval,
    declareModel,
    declareWorkers,
    declareRuns,
    declareSteps,
    declareEnv,
    declareDemo,
    declareCompletion,
  ])
    declare(program, context);
  return program;
}
