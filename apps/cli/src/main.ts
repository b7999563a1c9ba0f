import { DEFAULT_DATA_DIR, DEFAULT_SERVER_URL } from "@raas/shared";
import { createClient, describeError } from "./client";
import { DEMO_HELP, demoCommand } from "./commands/demo.command";
import { EVAL_SWE_HELP, evalCommand } from "./commands/eval-swe.command";
import { EXPORT_HELP, exportCommand } from "./commands/export.command";
import { JOBS_HELP, jobsCommand } from "./commands/jobs.command";
import { RUNS_HELP, runsCommand } from "./commands/runs.command";
import { SERVE_HELP, serveCommand } from "./commands/serve.command";
import { STATUS_HELP, statusCommand } from "./commands/status.command";
import { STEPS_HELP, stepsCommand } from "./commands/steps.command";
import { SUBMIT_HELP, submitCommand } from "./commands/submit.command";
import { WORKER_HELP, workerCommand } from "./commands/worker.command";
import { WORKERS_HELP, workersCommand } from "./commands/workers.command";
import { loadCliEnv } from "./env";

const HELP = `raas — Rollout-as-a-Service command line

${SERVE_HELP}
${WORKER_HELP}
${SUBMIT_HELP}
${STATUS_HELP}
${JOBS_HELP}
${EXPORT_HELP}
${EVAL_SWE_HELP}
${WORKERS_HELP}
${RUNS_HELP}
${STEPS_HELP}
${DEMO_HELP}

global options: --url URL (env RAAS_URL, default ${DEFAULT_SERVER_URL})
                --token TOKEN (env RAAS_TOKEN, default: the admin token \`npm start\` saved in ${DEFAULT_DATA_DIR}/)`;

/** Pulls `--url` and `--token` out of argv wherever they appear. */
function takeGlobal(argv: string[], name: string): string | undefined {
  const index = argv.indexOf(`--${name}`);
  if (index < 0) return undefined;
  const value = argv[index + 1];
  argv.splice(index, 2);
  if (value === undefined) throw new Error(`--${name} needs a value`);
  return value;
}

async function main(argv: string[]): Promise<number> {
  const env = loadCliEnv();
  const url = takeGlobal(argv, "url") ?? env.RAAS_URL;
  const token = takeGlobal(argv, "token") ?? env.RAAS_TOKEN;
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    console.log(HELP);
    return command === undefined ? 2 : 0;
  }
  if (command === "serve") return serveCommand(rest);
  if (command === "worker") return workerCommand(rest);
  const client = createClient({ url, token, dataDir: env.RAAS_DATA_DIR });
  try {
    switch (command) {
      case "submit":
        return await submitCommand(client, rest);
      case "status":
        return await statusCommand(client, rest);
      case "jobs":
        return await jobsCommand(client, rest);
      case "export":
        return await exportCommand(client, rest);
      case "eval":
        return await evalCommand(client, rest);
      case "workers":
        return await workersCommand(client, rest);
      case "runs":
        return await runsCommand(client, rest);
      case "steps":
        return await stepsCommand(client, rest);
      case "demo":
        return await demoCommand(client, rest);
      default:
        console.error(`unknown command "${command}"\n\n${HELP}`);
        return 2;
    }
  } catch (error) {
    console.error(`error: ${describeError(error, url)}`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
