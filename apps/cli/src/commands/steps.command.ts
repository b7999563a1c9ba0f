import type { TStep, TWasteLedger } from "@raas/shared";
import type { Command } from "commander";
import type { CliContext } from "../cli-context";
import type { RaasClient } from "../client";
import { printJson, table } from "../output";

const round = (value: number | null, digits = 3) => (value === null ? "-" : value.toFixed(digits));

function summary(step: TStep): string {
  const { stats } = step;
  const lines = [
    `step ${step.id} (run ${step.runId}, index ${step.index}): ${step.status}`,
    `  groups      ${stats.groupsDelivered}/${step.groups} handed out, ${step.groupSize} samples each, policy ${step.policy}`,
    `  decided     ${stats.groupsDecided} of ${stats.groupsStarted} started: ${stats.informative} informative, ${stats.uninformative} uninformative, ${stats.failedGroups} failed`,
    `  jobs        ${stats.jobsSubmitted} submitted, ${stats.jobsCancelled} cancelled, ${stats.infraRetries} infrastructure retries, ${stats.verifierCrashes} verifier crashes`,
    `  carried     ${stats.trajectoriesCarriedIn} in, ${stats.trajectoriesCarriedOver} over; stale ${stats.staleWithheld} withheld, ${stats.staleRegenerated} regenerated`,
    `  rewards     mean ${round(stats.rewardMean)} std ${round(stats.rewardStd)} min ${round(stats.rewardMin)} max ${round(stats.rewardMax)}, solved ${round(stats.solvedFraction)} (${stats.trajectories} trajectories)`,
    "  waste",
  ];
  if (step.failure) lines.splice(1, 0, `  failed      ${step.failure.message}`);
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

export function declareSteps(program: Command, context: CliContext): void {
  const steps = program.command("steps").description("training steps");
  steps
    .command("show")
    .description("a step's progress, rewards and waste ledger")
    .argument("[stepId]", "step id (see GET /api/v1/runs/<runId>/steps)")
    .option("--json", "print the step as JSON")
    .action(async (stepId: string | undefined, options: { json?: boolean }) => {
      context.setExitCode(await showStep(context.client(), stepId, options));
    });
}

async function showStep(
  client: RaasClient,
  stepId: string | undefined,
  values: { json?: boolean },
): Promise<number> {
  if (!stepId) throw new Error("missing step id (see GET /api/v1/runs/<runId>/steps)");
  const step = await client.steps.get.query({ stepId });
  if (values.json) printJson(step);
  else console.log(summary(step));
  return 0;
}
