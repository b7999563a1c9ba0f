import { formatIssues, requestFailure, type TStepTask, type TTaskSource } from "@raas/shared";
import type { z } from "zod";
import type { GroupRecord } from "../ports/batch-store.port";
import type { TaskCatalog } from "./batch-system.types";

/** The tasks of a step's source; an unknown dataset is a 400 naming the known ones. */
export async function resolveTasks(
  catalog: TaskCatalog | undefined,
  source: TTaskSource,
): Promise<readonly TStepTask[]> {
  if (source.type === "inline") return source.tasks;
  const tasks = await catalog?.tasks(source.dataset);
  if (!tasks) {
    const names = (await catalog?.list())?.map((d) => d.name) ?? [];
    throw requestFailure(
      "VALIDATION_FAILED",
      `tasks.dataset: no dataset "${source.dataset}" on this server${names.length ? ` (known: ${names.join(", ")})` : ""}`,
    );
  }
  return tasks;
}

/** Parses a request; a bad one is a 400 with every issue in one sentence. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw requestFailure("VALIDATION_FAILED", formatIssues(parsed.error.issues));
  return parsed.data;
}

/** What identifies a change of each group (to save only the groups an event changed). */
export function snapshot(groups: readonly GroupRecord[]): Map<string, string> {
  return new Map(groups.map((g) => [g.id, fingerprint(g)]));
}

function fingerprint(group: GroupRecord): string {
  return `${group.state}|${group.decision}|${group.seq}|${group.carriedIntoGroupId}|${group.expiredInStepId}|${group.members.map((m) => `${m.status}:${m.jobId}:${m.reward}:${m.isStale}`).join(",")}`;
}

export function changedGroups(groups: readonly GroupRecord[], before: Map<string, string>): Set<string> {
  return new Set(groups.filter((g) => before.get(g.id) !== fingerprint(g)).map((g) => g.id));
}
