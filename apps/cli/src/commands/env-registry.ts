import type { RaasClient } from "../client";
import { formatMs, printJson, table } from "../output";

type TEnvironmentView = Awaited<ReturnType<RaasClient["environments"]["get"]["query"]>>["environment"];

/** `5/5 pass`, `4/5 pass, 1 fail` — or `-` before any oracle check. */
function oracleSummary(environment: TEnvironmentView): string {
  const { oracle } = environment;
  if (oracle === null) return "-";
  const total = oracle.passed + oracle.failed + oracle.skipped;
  const parts = [`${oracle.passed}/${total} pass`];
  if (oracle.failed > 0) parts.push(`${oracle.failed} fail`);
  if (oracle.skipped > 0) parts.push(`${oracle.skipped} skipped`);
  return parts.join(", ");
}

function row(environment: TEnvironmentView, nowMs: number) {
  return {
    name: environment.name,
    kind: environment.kind,
    tasks: environment.taskCount,
    oracle: oracleSummary(environment),
    checked: environment.oracle ? `${formatMs(nowMs - environment.oracle.checkedAtMs)} ago` : "-",
    path: environment.path,
  };
}

export function printEnvironmentList(environments: TEnvironmentView[], json: boolean): void {
  if (json) printJson({ environments });
  else if (environments.length === 0) console.log("no environments registered (raas env register <dir>)");
  else console.log(table(environments.map((environment) => row(environment, Date.now()))));
}

/** One environment: its row, then its last oracle check task by task. */
export function printEnvironment(environment: TEnvironmentView, json: boolean): void {
  if (json) {
    printJson({ environment });
    return;
  }
  const lines = [table([row(environment, Date.now())])];
  if (environment.description) lines.push(environment.description);
  const { oracle } = environment;
  if (oracle === null) lines.push("no oracle check recorded (raas env verify <name>)");
  else {
    lines.push(`oracle check of ${new Date(oracle.checkedAtMs).toISOString()}:`);
    lines.push(
      table(
        oracle.rows.map((r) => ({
          task: r.task,
          oracle: r.oracleReward ?? "-",
          "no-op": r.noopReward ?? "-",
          verdict: r.verdict,
          seconds: r.seconds.toFixed(1),
        })),
      ),
    );
  }
  console.log(lines.join("\n"));
}

export type { TEnvironmentView };
