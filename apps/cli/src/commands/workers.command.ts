import { parseArgs } from "node:util";
import type { TWorkerView } from "@raas/api";
import { STAGES } from "@raas/shared";
import type { RaasClient } from "../client";
import { formatMs, printJson, table } from "../output";

export const WORKERS_HELP = `raas workers list [--all] [--json]      (--all: stopped workers too)
raas workers drain <id> [--json]        (admin: finish current jobs, take no new ones)
raas workers resume <id> [--json]       (admin: take work again)`;

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

export async function workersCommand(client: RaasClient, argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { all: { type: "boolean", default: false }, json: { type: "boolean", default: false } },
  });
  switch (sub) {
    case "list": {
      const { workers } = await client.workers.list.query({ includeStopped: values.all });
      if (values.json) printJson({ workers });
      else console.log(workers.length === 0 ? "no workers registered" : table(workers.map(row)));
      return 0;
    }
    case "drain":
    case "resume": {
      const [id] = positionals;
      if (!id) throw new Error(`missing worker id (see raas workers list)\nusage:\n${WORKERS_HELP}`);
      const { worker } = await client.workers[sub].mutate({ id });
      printWorker(worker, values.json, sub === "drain" ? "drained" : "resumed");
      return 0;
    }
    default:
      throw new Error(`unknown workers command "${sub ?? ""}"\nusage:\n${WORKERS_HELP}`);
  }
}
