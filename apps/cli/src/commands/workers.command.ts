import type { TWorkerView } from "@raas/api";
import { STAGES } from "@raas/shared";
import type { Command } from "commander";
import type { CliContext } from "../cli-context";
import { formatMs, printJson, table } from "../output";

/** `init 3/4` style occupancy of each pool the worker runs. */
function poolsOf(worker: TWorkerView): string {
  const pools = STAGES.flatMap((stage) => {
    const pool = worker.pools[stage];
    return pool ? [`${stage} ${pool.active}/${pool.concurrency}`] : [];
  });
  return pools.length > 0 ? pools.join(", ") : "none";
}

function row(worker: TWorkerView) {
  return {
    id: worker.id,
    status: worker.status,
    pools: poolsOf(worker),
    sandboxes: worker.sandboxes,
    heartbeat: `${formatMs(worker.heartbeatAgeMs)} ago`,
    labels: worker.labels.join(",") || "-",
  };
}

function printWorker(worker: TWorkerView, json: boolean, verb: string): void {
  if (json) printJson({ worker });
  else console.log(`${verb} ${worker.id}: now ${worker.status}\n${table([row(worker)])}`);
}

export function declareWorkers(program: Command, context: CliContext): void {
  const workers = program.command("workers").description("workers of distributed mode");
  workers
    .command("list")
    .description("registered workers with their pools' occupancy")
    .option("--all", "stopped workers too")
    .option("--json", "print the workers as JSON")
    .action(async (options: { all?: boolean; json?: boolean }) => {
      const { workers } = await context.client().workers.list.query({ includeStopped: options.all === true });
      if (options.json) printJson({ workers });
      else console.log(workers.length === 0 ? "no workers registered" : table(workers.map(row)));
    });
  for (const [verb, done, description] of [
    ["drain", "drained", "admin: finish current jobs, take no new ones"],
    ["resume", "resumed", "admin: take work again"],
  ] as const)
    workers
      .command(verb)
      .description(description)
      .argument("[id]", "worker id (see raas workers list)")
      .option("--json", "print the worker as JSON")
      .action(async (id: string | undefined, options: { json?: boolean }) => {
        if (!id) throw new Error("missing worker id (see raas workers list)");
        const { worker } = await context.client().workers[verb].mutate({ id });
        printWorker(worker, options.json === true, done);
      });
}
