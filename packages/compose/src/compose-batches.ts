import type {
  EngineLogger,
  EnvironmentStore,
  EventBus,
  GatewayCallStore,
  PolicySink,
  RolloutEngine,
  TrajectoryRetention,
} from "@raas/engine";
import { createEnvironmentTaskCatalog, createShippedTaskCatalog } from "@raas/handlers";
import {
  type BatchStore,
  BatchSystem,
  BusPolicySink,
  type CurriculumStore,
  gatewayTraceCertifier,
  PolicyControl,
  RetentionSystem,
  type TaskCatalog,
} from "@raas/training";

export interface ComposeBatchesOptions {
  engine: RolloutEngine;
  /** Runs, steps, groups and the policy state (`ComposedEngine.batches`). */
  store: BatchStore;
  /** Per-task history and curriculum state (`ComposedEngine.curriculum`). Default: in memory. */
  curriculum?: CurriculumStore;
  /** This process's inference pool: a policy change gates its generation and stamps its backends. */
  inference?: PolicySink;
  /** Datasets a step may name. Default: the shipped ones whose handler the engine has registered. */
  catalog?: TaskCatalog;
  /**
   * Environments registered through the API (`ComposedEngine.environments`): a step names one as
   * a dataset, its tasks read from its directory. Default none.
   */
  environments?: EnvironmentStore;
  logger: EngineLogger;
  /** The deployment's bus (distributed mode): policy changes reach the workers through it. */
  bus?: EventBus | null;
  /**
   * The inference gateway's call records (`ComposedEngine.gatewayCalls`): steps with
   * `requireCertifiedTraces` read each finished job's certificate from them. Without them such
   * steps are refused.
   */
  gatewayCalls?: GatewayCallStore;
  /**
   * The trajectory archive (`ComposedEngine.archive`): with it, runs may set a retention policy
   * and a `RetentionSystem` applies them. Without it (memory store) such runs are refused.
   */
  archive?: TrajectoryRetention | null;
  /** How often runs' retention policies are applied, in ms. Default 60_000. */
  retentionEveryMs?: number;
}

export interface ComposedBatches {
  system: BatchSystem;
  policy: PolicyControl;
  catalog: TaskCatalog;
  /** Applies runs' retention policies; null without an archive. */
  retention: RetentionSystem | null;
  /** Stops the batch system (stop it before the engine). Idempotent. */
  close(): Promise<void>;
}

/**
 * The batch system (training runs, steps, groups) and the policy control over a started engine.
 * One process of a deployment runs them: the embedded server, or the API server in distributed
 * mode; worker processes never do (they hear policy changes through the bus).
 */
export async function composeBatches(options: ComposeBatchesOptions): Promise<ComposedBatches> {
  const kinds = options.engine.handlerKinds();
  const base = options.catalog ?? createShippedTaskCatalog({ kinds });
  const catalog = options.environments
    ? createEnvironmentTaskCatalog({ base, environments: options.environments, kinds })
    : base;
  // This process's pool and engine (RUN budgets held while paused), and the workers through the bus.
  const sinks: PolicySink[] = [options.engine];
  if (options.inference) sinks.push(options.inference);
  if (options.bus) {
    const logger = options.logger;
    sinks.push(
      new BusPolicySink(options.bus, (error) =>
        logger.warn({ err: String(error) }, "publishing a policy change failed"),
      ),
    );
  }
  const policy = new PolicyControl({ store: options.store, sinks });
  await policy.start();
  const system = new BatchSystem({
    engine: options.engine,
    store: options.store,
    ...(options.curriculum ? { curriculum: options.curriculum } : {}),
    ...(options.gatewayCalls ? { traceCertifier: gatewayTraceCertifier(options.gatewayCalls) } : {}),
    catalog,
    // Each run's samples are stamped (and their staleness counted) with its own policy's version.
    weightVersion: (policyId) => policy.weightVersionOf(policyId),
    logger: options.logger,
    archivesTrajectories: Boolean(options.archive),
  });
  await system.start();
  const retention = options.archive
    ? new RetentionSystem({
        store: options.store,
        archive: options.archive,
        ...(options.retentionEveryMs !== undefined && { everyMs: options.retentionEveryMs }),
        logger: options.logger,
      })
    : null;
  retention?.start();
  let closing: Promise<void> | null = null;
  return {
    system,
    policy,
    catalog,
    retention,
    close: () => {
      closing ??= Promise.all([system.stop(), retention?.stop()]).then(() => undefined);
      return closing;
    },
  };
}
