import type { Logger } from "pino";
import type { RunningWorker } from "./start-worker";

/**
 * SIGTERM or SIGINT: drain (take no new job), wait for the jobs held here up to the stop grace,
 * stop, exit 0. A second signal exits at once (130); the jobs still held here are re-run
 * elsewhere once the server finds this worker silent.
 */
export function handleStopSignals(worker: RunningWorker, logger: Logger): void {
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      logger.warn({ signal, workerId: worker.id }, "second signal: exiting now");
      process.exit(130);
    }
    logger.info({ signal, workerId: worker.id }, "stop requested: draining, then stopping");
    worker.drainAndStop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "stop failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}
