import type { TRole } from "../auth/auth.types";

/**
 * Error codes a route may document beyond those every route has (400, 401/403, 500). `FORBIDDEN`
 * here means the ownership 403: the work belongs to another trainer's token.
 */
type DocumentedError = "NOT_FOUND" | "CONFLICT" | "UNAVAILABLE" | "FORBIDDEN";

/**
 * The REST route of a procedure, declared beside it with `.meta({ openapi: { … } })`. Input and
 * output schemas come from the procedure's `.input()`/`.output()`, the role from the procedure
 * builder it uses (`publicProcedure` … `adminProcedure`), the tag from its router. Where the
 * input comes from follows from the method: `{name}` path segments fill the input fields of that
 * name; the other fields are the JSON body of a POST, the query string of a GET/DELETE.
 */
export interface OpenApiRouteMeta {
  method: "GET" | "POST" | "DELETE";
  /** Path template under the server root, e.g. `/api/v1/jobs/{id}`. */
  path: string;
  /** Stable name for generated clients (e.g. `submitJob`). */
  operationId: string;
  /** One line for tables of contents. */
  summary: string;
  /** What the operation does, when to use it, and its notable errors. */
  description: string;
  /** HTTP status of a success. Default 200. `created` answers 201 when the output's `created` is true, else 200. */
  successStatus?: 200 | 201 | "created";
  /** Errors this route really answers, besides the ones every route has (404 is implied by a path parameter). */
  errors?: readonly DocumentedError[];
  /** An example request body (required for routes that take one; the document test checks it). */
  example?: Record<string, unknown>;
}

/** Metadata of every procedure. */
export interface ProcedureMeta {
  /** Least role that may call it; set by the procedure builder, never by a procedure. */
  role?: TRole | "public";
  /** Present when the procedure is also a REST route. */
  openapi?: OpenApiRouteMeta;
}
