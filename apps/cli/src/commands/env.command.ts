import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import type { CliContext } from "../cli-context";
import { collectJudgeBackend } from "./env-judge-backends";
import { printEnvironment, printEnvironmentList } from "./env-registry";
import {
  checkEnvironmentDir,
  type EnvVerifyOptions,
  JudgeBackendMissingError,
  printOracleReport,
} from "./env-verify";

/** Exit status of a judge environment checked without `--judge-backend` (a usage error). */
const JUDGE_BACKEND_MISSING_EXIT_CODE = 2;

interface RegisterOptions {
  name?: string;
  kind?: "harbor" | "reward-fn" | "judge";
  json?: boolean;
}

/** `raas env …`: environments (Harbor task directories, Python reward functions, LLM judges) and their registry. */
export function declareEnv(program: Command, context: CliContext): void {
  const env = program
    .command("env")
    .description("environments: Harbor task directories, Python reward functions, LLM judges");
  env
    .command("verify")
    .summary("oracle check: reference solutions earn full reward, a no-op none")
    .description(
      [
        "Runs each task's reference solution (a Harbor task's solution/solve.sh; a reward-fn row's",
        "ground truth as the answer; a judge row's reference answer) expecting full reward (a judge's:",
        "its pass_score, default 80% of the scale), and a no-op (no changes, an empty answer)",
        "expecting none, through the environment's own handler on real sandboxes, on this machine",
        "(no server). A judge environment needs --judge-backend (exit 2 without one). Prints a table",
        "(task, oracle reward, no-op reward, verdict, seconds); exits 1 when any task fails its",
        "check. Given the name of a registered environment instead of a directory, checks its",
        "directory (it must be readable here) and stores the result with it.",
      ].join(" "),
    )
    .argument(
      "<dir|name>",
      "a Harbor task directory or dataset, a reward-fn or judge environment, or a registered name",
    )
    .option("--concurrency <n>", "jobs in each stage at once (default 4)")
    .option("--sandbox <runtime>", "bubblewrap (default) or local (no isolation, development only)")
    .option(
      "--judge-backend <url>",
      "a judge environment's judge model: [vllm=|sglang=]url[#model] of an OpenAI-compatible server, as RAAS_JUDGE_BACKENDS (repeatable or a comma list; the model is read from /v1/models when not named)",
      collectJudgeBackend,
    )
    .option("--json", "print the report as JSON, no progress")
    .action(async (target: string, options: EnvVerifyOptions) => {
      const isDir = existsSync(target);
      const registered = isDir
        ? null
        : (await context.client().environments.get.query({ name: target })).environment;
      const dir = registered ? registered.path : resolve(target);
      const report = await checkEnvironmentDir(dir, options).catch((error: unknown) => {
        if (!(error instanceof JudgeBackendMissingError)) throw error;
        console.error(`error: ${error.message}`);
        return null;
      });
      if (report === null) {
        context.setExitCode(JUDGE_BACKEND_MISSING_EXIT_CODE);
        return;
      }
      printOracleReport(report, options.json === true);
      if (registered) {
        const { rows, passed, failed, skipped } = report;
        await context.client().environments.recordOracle.mutate({
          name: registered.name,
          oracle: { checkedAtMs: Date.now(), passed, failed, skipped, rows },
        });
        if (!options.json) console.error(`stored with environment ${registered.name}`);
      }
      context.setExitCode(report.failed > 0 ? 1 : 0);
    });
  env
    .command("register")
    .description("register an environment directory with the service (admin), by name")
    .argument("<dir>", "the directory, as the server sees it (made absolute here)")
    .option("--name <name>", "the name runs reference it by (default: the environment's own)")
    .option("--kind <kind>", "harbor, reward-fn or judge: the kind the directory must hold")
    .option("--json", "print the environment as JSON")
    .action(async (dir: string, options: RegisterOptions) => {
      const { environment, created } = await context.client().environments.register.mutate({
        path: resolve(dir),
        ...(options.name !== undefined && { name: options.name }),
        ...(options.kind !== undefined && { kind: options.kind }),
      });
      if (options.json) printEnvironment(environment, true);
      else
        console.log(
          `${created ? "registered" : "updated"} ${environment.name}: ${environment.kind}, ${environment.taskCount} tasks, ${environment.path}`,
        );
    });
  env
    .command("list")
    .description("registered environments with their task counts and last oracle checks")
    .option("--json", "print the environments as JSON")
    .action(async (options: { json?: boolean }) => {
      const { environments } = await context.client().environments.list.query();
      printEnvironmentList(environments, options.json === true);
    });
  env
    .command("show")
    .description("one registered environment and its last oracle check, task by task")
    .argument("<name>", "the environment's name (see raas env list)")
    .option("--json", "print the environment as JSON")
    .action(async (name: string, options: { json?: boolean }) => {
      const { environment } = await context.client().environments.get.query({ name });
      printEnvironment(environment, options.json === true);
    });
}
