import { parseArgs } from "node:util";
import type { TStep, TWasteLedger } from "@raas/shared";
import type { RaasClient } from "../client";
import { printJson, table } from "../output";

export const STEPS_HELP = `raas steps show <stepId> [--json]       (a step's progress, rewards and waste ledger)`;

const round = (value: number | null, digits = 3) => (value === null ? "-" : value.toFixed(digits));

function summary(step: TStep): string {
  const { stats } = step;
  const lines = [
    `step ${step.id} (run ${step.runId}, index ${step.index}): ${step.status}`,
    `  groups      ${stats.groupsDelivered}/${step.groups} handed out, ${step.groupSize} samples each, policy ${step.policy}`,
    `  decided     ${stats.groupsDecided} of ${stats.groupsStarted} started: ${stats.informative} informative, ${stats.uninformative} uninformative, ${stats.failedGroups} failed`,
    `  jobs        ${stats.jobsSubmitted} submitted, ${stats.jobsCancelled} cancelled, ${stats.infraRetries} infrastructure retries`,
    `  carried     ${stats.trajectoriesCarriedIn} in, ${stats.trajectoriesCarriedOver} over; stale ${stats.staleWithheld} withheld, ${stats.staleRegenerated} regenerated`,
    `  rewards     mean ${round(stats.rewardMean)} std ${round(stats.rewardStd)} min ${round(stats.rewardMin)} max ${round(stats.rewardMax)}, solved ${round(stats.solvedFraction)} (${stats.trajectories} trajectories)`,
    "  waste",
  ];
  const waste = (Object.keys(stats.waste) as Array<keyof TWasteLedger>).map((cause) => ({
    cause,
    jobs: stats.waste[cause].jobs,
    rolloutSeconds: stats.waste[cause].rolloutSeconds.toFixed(1),
    generatedTokens: stats.waste[cause].generatedTokens,
  }));
  return `${lines.join("\n")}\n${table(waste)
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n")}`;
}

export async function stepsCommand(client: RaasClient, argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { json: { type: "boolean", default: false } },
  });
  switch (sub) {
    case "show": {
      const [stepId] = positionals;
      if (!stepId)
        throw new Error(`missing step id (see GET /api/v1/runs/<runId>/steps)\nusage:\n${STEPS_HELP}`);
      const step = await client.steps.get.query({ stepId });
      if (values.json) printJson(step);
      else console.log(summary(step));
      return 0;
    }
    default:
      throw new Error(`unknown steps command "${sub ?? ""}"\nusage:\n${STEPS_HELP}`);
  }
}
