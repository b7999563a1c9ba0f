import type { TFailureKind, TJobListRequest, TJobStatus } from "@raas/shared";
import { FAILURE_KINDS, JOB_STATUSES } from "../../lib/domain";

/** The trajectory browser's filters, exactly as they appear in the URL's query string. */
export interface TTrajectoryFilters {
  runId?: string;
  stepId?: string;
  groupId?: string;
  taskId?: string;
  kind?: string;
  status?: TJobStatus;
  failureKind?: TFailureKind;
  minReward?: number;
  maxReward?: number;
  search?: string;
  cursor?: string;
}

const TEXT_KEYS = ["runId", "stepId", "groupId", "taskId", "kind", "search", "cursor"] as const;
const NUMBER_KEYS = ["minReward", "maxReward"] as const;

/** Every key in URL order. */
const TRAJECTORY_FILTER_KEYS = [
  "runId",
  "stepId",
  "groupId",
  "taskId",
  "kind",
  "status",
  "failureKind",
  "minReward",
  "maxReward",
  "search",
  "cursor",
] as const satisfies ReadonlyArray<keyof TTrajectoryFilters>;

/** Trajectories per page. */
const TRAJECTORIES_PAGE_SIZE = 25;

function oneOf<T extends string>(allowed: readonly T[], value: string | null): T | undefined {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** A trimmed, non-empty value without control characters (the server would refuse it), else undefined. */
function text(value: string | null, maxLength = 200): string | undefined {
  const trimmed = value?.trim() ?? "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (trimmed.length === 0 || /[\u0000-\u001f\u007f]/.test(trimmed)) return undefined;
  return trimmed.slice(0, maxLength);
}

function finite(value: string | null): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/** Reads filters from a query string (or a form), dropping unknown or malformed values. */
export function parseTrajectoryFilters(params: { get(name: string): string | null }): TTrajectoryFilters {
  const filters: TTrajectoryFilters = {};
  for (const key of TEXT_KEYS) {
    const value = text(params.get(key), key === "search" ? 300 : 200);
    if (value !== undefined) filters[key] = value;
  }
  for (const key of NUMBER_KEYS) {
    const value = finite(params.get(key));
    if (value !== undefined) filters[key] = value;
  }
  const status = oneOf(JOB_STATUSES, params.get("status"));
  const failureKind = oneOf(FAILURE_KINDS, params.get("failureKind"));
  if (status) filters.status = status;
  if (failureKind) filters.failureKind = failureKind;
  return filters;
}

/** The query string for a set of filters (empty values left out), `?…` or "". */
export function toTrajectoryQuery(filters: TTrajectoryFilters): string {
  const params = new URLSearchParams();
  for (const key of TRAJECTORY_FILTER_KEYS) {
    const value = filters[key];
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  const query = params.toString();
  return query.length > 0 ? `?${query}` : "";
}

/** The `jobs.list` input: a step is a batch (`batchId`); the rest map one to one. */
export function toTrajectoryListRequest(filters: TTrajectoryFilters): TJobListRequest {
  const { stepId, ...rest } = filters;
  return { ...rest, ...(stepId !== undefined ? { batchId: stepId } : {}), limit: TRAJECTORIES_PAGE_SIZE };
}
