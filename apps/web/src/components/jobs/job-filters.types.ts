import type { TFailureKind, TFailureLabel, TJobListRequest, TJobStatus, TStage } from "@raas/shared";
import { FAILURE_KINDS, FAILURE_LABELS, JOB_STATUSES, STAGES } from "../../lib/domain";

/** The Jobs page's filters, exactly as they appear in the URL's query string. */
export interface TJobFilters {
  status?: TJobStatus;
  stage?: TStage;
  kind?: string;
  failureKind?: TFailureKind;
  failureLabel?: TFailureLabel;
  search?: string;
  cursor?: string;
}

const FILTER_KEYS = ["status", "stage", "kind", "failureKind", "failureLabel", "search", "cursor"] as const;

/** Jobs per page. */
const JOBS_PAGE_SIZE = 20;

function oneOf<T extends string>(allowed: readonly T[], value: string | null): T | undefined {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}

function text(value: string | null, maxLength: number): string | undefined {
  const trimmed = value?.trim() ?? "";
  return trimmed.length > 0 ? trimmed.slice(0, maxLength) : undefined;
}

/** Reads filters from a query string, dropping unknown or malformed values. */
export function parseJobFilters(params: URLSearchParams): TJobFilters {
  const filters: TJobFilters = {};
  const status = oneOf(JOB_STATUSES, params.get("status"));
  const stage = oneOf(STAGES, params.get("stage"));
  const failureKind = oneOf(FAILURE_KINDS, params.get("failureKind"));
  const failureLabel = oneOf(FAILURE_LABELS, params.get("failureLabel"));
  const kind = text(params.get("kind"), 100);
  const search = text(params.get("search"), 300);
  const cursor = text(params.get("cursor"), 300);
  if (status) filters.status = status;
  if (stage) filters.stage = stage;
  if (failureKind) filters.failureKind = failureKind;
  if (failureLabel) filters.failureLabel = failureLabel;
  if (kind) filters.kind = kind;
  if (search) filters.search = search;
  if (cursor) filters.cursor = cursor;
  return filters;
}

/** The query string for a set of filters (empty values left out). */
export function toQueryString(filters: TJobFilters): string {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  const query = params.toString();
  return query.length > 0 ? `?${query}` : "";
}

/** The `jobs.list` input for a set of filters. */
export function toListRequest(filters: TJobFilters): TJobListRequest {
  return { ...filters, limit: JOBS_PAGE_SIZE };
}
