import { TERMINAL_STATUSES, type TJobListQuery } from "@raas/shared";
import type { Prisma } from "../generated/client";
import { trajectoryFilterWhere } from "./trajectory-filter-where";

/** Escapes LIKE wildcards so a search for `a_b` matches that text, not `a?b`. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** The WHERE clause of `listJobs`: every filter of `ZJobListRequest` plus the cursor. */
export function jobListWhere(query: TJobListQuery): Prisma.JobWhereInput {
  const where: Prisma.JobWhereInput = {};
  if (query.status !== undefined) where.status = query.status;
  if (query.stage !== undefined) where.stage = query.stage;
  if (query.kind !== undefined) where.kind = query.kind;
  if (query.failureKind !== undefined) where.failureKind = query.failureKind;
  if (query.failureLabel !== undefined) where.failureLabel = query.failureLabel;
  if (query.groupId !== undefined) where.groupId = query.groupId;
  if (query.batchId !== undefined) where.batchId = query.batchId;
  if (query.cursor !== undefined) where.id = { lt: query.cursor };
  if (query.search !== undefined && query.search !== "") {
    const contains = likeLiteral(query.search);
    where.OR = [{ id: { contains, mode: "insensitive" } }, { jobKey: { contains, mode: "insensitive" } }];
  }
  const labelled = trajectoryFilterWhere(query);
  if (labelled.length > 0) where.AND = labelled;
  return where;
}

/** Jobs that are not terminal. */
export const UNFINISHED: Prisma.JobWhereInput = { status: { notIn: [...TERMINAL_STATUSES] } };
