import type { ServerHandle } from "./deployment";
import type { SpawnedWorker } from "./worker-processes";

/** A pino JSON line at `error` (50) or `fatal` (60). */
const ERROR_LEVEL = /"level":(50|60)\b/;

/**
 * The error and fatal log lines of a deployment's processes, each prefixed with the process it
 * came from: an outage that is ridden out (retried with back-off and recovered) logs none.
 */
export function errorLogLines(server: ServerHandle, workers: readonly SpawnedWorker[]): string[] {
  const sources: Array<[string, string[]]> = [
    ["server", server.proc.lines],
    ...workers.map((worker): [string, string[]] => [worker.id, worker.output().split("\n")]),
  ];
  return sources.flatMap(([name, lines]) =>
    lines.filter((line) => ERROR_LEVEL.test(line)).map((line) => `${name}: ${line}`),
  );
}
