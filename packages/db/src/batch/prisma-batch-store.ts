import { requestFailure, type TPolicyState } from "@raas/shared";
import type { BatchStore, GroupRecord, RunRecord, StepRecord } from "@raas/training";
import { Prisma, type PrismaClient } from "../generated/client";
import {
  fromGroupRow,
  fromPolicyRow,
  fromRunRow,
  fromStepRow,
  groupColumns,
  groupInsertColumns,
  policyColumns,
  runColumns,
  stepColumns,
  stepInsertColumns,
} from "./batch-row-codec";

/**
 * The `BatchStore` of PGlite and PostgreSQL: training runs, steps and groups (`training_runs`,
 * `training_steps`, `training_groups`) and the policies (`policies`, one row per policy). Shares the job store's
 * client: `new PrismaBatchStore(jobStore.prisma)`; closing is the job store's business.
 *
 * Saves are compare-and-set: one `UPDATE … WHERE id = $1 AND version = $2` that also sets
 * `version + 1`. PostgreSQL locks the row and re-checks the condition after waiting, so of two
 * racing saves of one version exactly one changes the row; the caller's record gets the new
 * version only when its save did. A save leaves out what is fixed at insert (a step's `request`,
 * a group's `task`). Inserting an id (or run key, or step key of the run) already
 * stored is a `CONFLICT`; a step of an unknown run, or a group of an unknown step, is `NOT_FOUND`.
 */
export class PrismaBatchStore implements BatchStore {
  readonly #prisma: PrismaClient;

  constructor(prisma: PrismaClient) {
    this.#prisma = prisma;
  }

  async insertRun(run: RunRecord): Promise<void> {
    await insertOrExplain(
      this.#prisma.trainingRun.create({ data: { id: run.id, ...runColumns(run), version: run.version } }),
      `a run with id "${run.id}"${run.runKey === null ? "" : ` or run key "${run.runKey}"`} already exists`,
      "",
    );
  }

  async getRun(id: string): Promise<RunRecord | null> {
    const row = await this.#prisma.trainingRun.findUnique({ where: { id } });
    return row ? fromRunRow(row) : null;
  }

  async findRunByKey(runKey: string): Promise<RunRecord | null> {
    const row = await this.#prisma.trainingRun.findUnique({ where: { runKey } });
    return row ? fromRunRow(row) : null;
  }

  async listRuns(limit: number): Promise<RunRecord[]> {
    const rows = await this.#prisma.trainingRun.findMany({
      orderBy: [{ createdAtMs: "desc" }, { id: "desc" }],
      take: limit,
    });
    return rows.map(fromRunRow);
  }

  async saveRun(run: RunRecord): Promise<boolean> {
    const { count } = await this.#prisma.trainingRun.updateMany({
      where: { id: run.id, version: run.version },
      data: { ...runColumns(run), version: run.version + 1 },
    });
    return bumpWhenSaved(run, count);
  }

  async insertStep(step: StepRecord): Promise<void> {
    await insertOrExplain(
      this.#prisma.trainingStep.create({
        data: stepInsertColumns(step),
      }),
      `a step with id "${step.id}"${step.stepKey === null ? "" : ` or step key "${step.stepKey}" in run ${step.runId}`} already exists`,
      `run ${step.runId} does not exist`,
    );
  }

  async getStep(id: string): Promise<StepRecord | null> {
    const row = await this.#prisma.trainingStep.findUnique({ where: { id } });
    return row ? fromStepRow(row) : null;
  }

  async findStepByKey(runId: string, stepKey: string): Promise<StepRecord | null> {
    const row = await this.#prisma.trainingStep.findUnique({ where: { runId_stepKey: { runId, stepKey } } });
    return row ? fromStepRow(row) : null;
  }

  async listSteps(runId: string): Promise<StepRecord[]> {
    const rows = await this.#prisma.trainingStep.findMany({
      where: { runId },
      orderBy: [{ index: "asc" }, { id: "asc" }],
    });
    return rows.map(fromStepRow);
  }

  async listRunningSteps(): Promise<StepRecord[]> {
    const rows = await this.#prisma.trainingStep.findMany({
      where: { status: "running" },
      orderBy: [{ createdAtMs: "asc" }, { id: "asc" }],
    });
    return rows.map(fromStepRow);
  }

  async saveStep(step: StepRecord): Promise<boolean> {
    const { count } = await this.#prisma.trainingStep.updateMany({
      where: { id: step.id, version: step.version },
      data: { ...stepColumns(step), version: step.version + 1 },
    });
    return bumpWhenSaved(step, count);
  }

  /** All or none: one multi-row `INSERT`. */
  async insertGroups(groups: readonly GroupRecord[]): Promise<void> {
    if (groups.length === 0) return;
    await insertOrExplain(
      this.#prisma.trainingGroup.createMany({
        data: groups.map(groupInsertColumns),
      }),
      groups.length === 1
        ? `a group with id "${groups[0]?.id}" already exists`
        : `one of ${groups.length} groups (ids "${groups[0]?.id}" …) already exists; none was inserted`,
      `step ${[...new Set(groups.map((group) => group.stepId))].join(" or ")} does not exist`,
    );
  }

  async getGroup(id: string): Promise<GroupRecord | null> {
    const row = await this.#prisma.trainingGroup.findUnique({ where: { id } });
    return row ? fromGroupRow(row) : null;
  }

  async listGroups(stepId: string): Promise<GroupRecord[]> {
    const rows = await this.#prisma.trainingGroup.findMany({
      where: { stepId },
      orderBy: [{ createdAtMs: "asc" }, { id: "asc" }],
    });
    return rows.map(fromGroupRow);
  }

  async listCarriedGroups(runId: string): Promise<GroupRecord[]> {
    const rows = await this.#prisma.trainingGroup.findMany({
      where: { runId, state: "carried", carriedIntoGroupId: null, expiredInStepId: null },
      orderBy: [{ createdAtMs: "asc" }, { id: "asc" }],
    });
    return rows.map(fromGroupRow);
  }

  async saveGroup(group: GroupRecord): Promise<boolean> {
    const { count } = await this.#prisma.trainingGroup.updateMany({
      where: { id: group.id, version: group.version },
      data: { ...groupColumns(group), version: group.version + 1 },
    });
    return bumpWhenSaved(group, count);
  }

  async listPolicyStates(): Promise<TPolicyState[]> {
    const rows = await this.#prisma.policy.findMany({ orderBy: { id: "asc" } });
    return rows.map(fromPolicyRow);
  }

  async savePolicyState(state: TPolicyState): Promise<void> {
    const columns = policyColumns(state);
    await this.#prisma.policy.upsert({
      where: { id: state.policyId },
      create: { id: state.policyId, ...columns },
      update: columns,
    });
  }

  /** The connection belongs to the job store that lent its client. */
  async close(): Promise<void> {}
}

/** As the memory adapter: the caller's record carries the stored version after a successful save. */
function bumpWhenSaved(record: { version: number }, changedRows: number): boolean {
  if (changedRows !== 1) return false;
  record.version += 1;
  return true;
}

/** Turns a unique violation into `CONFLICT` and a missing parent row into `NOT_FOUND`. */
async function insertOrExplain(
  insert: Promise<unknown>,
  conflict: string,
  missingParent: string,
): Promise<void> {
  try {
    await insert;
  } catch (error) {
    const state = sqlStateOf(error);
    if (state === UNIQUE_VIOLATION) throw requestFailure("CONFLICT", conflict, { cause: error });
    if (state === FOREIGN_KEY_VIOLATION && missingParent !== "")
      throw requestFailure("NOT_FOUND", missingParent, { cause: error });
    throw error;
  }
}

const UNIQUE_VIOLATION = "23505";
const FOREIGN_KEY_VIOLATION = "23503";

/**
 * The SQLSTATE behind a failed write. Prisma maps some driver errors to its own codes (P2002,
 * P2003); through the PGlite and pg adapters a violation may instead arrive as a
 * `DriverAdapterError` whose `cause` carries the database's SQLSTATE.
 */
function sqlStateOf(error: unknown): string | null {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    if (error.code === "P2002") return UNIQUE_VIOLATION;
    if (error.code === "P2003") return FOREIGN_KEY_VIOLATION;
  }
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === "string" ? cause.code : null;
}
