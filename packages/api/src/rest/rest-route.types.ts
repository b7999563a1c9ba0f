import type { z } from "zod";
import type { TRole } from "../auth/auth.types";
import type { OpenApiRouteMeta } from "../openapi/openapi-meta.types";

/** One REST operation, derived from a procedure and its `meta.openapi` (see `collectRestRoutes`). */
export interface RestRoute extends OpenApiRouteMeta {
  /** The tRPC procedure it calls, e.g. `jobs.submit`. */
  procedurePath: string;
  /** The procedure's router (`jobs`, `system`, …): the OpenAPI tag. */
  tag: string;
  /** Least role that may call it, from the procedure builder. */
  access: TRole | "public";
  /** Where the input fields that are not path parameters come from. */
  inputFrom: "body" | "query" | "none";
  /** Names of the `{param}` segments of `path`. */
  pathParams: string[];
  /** The procedure's input schema, or null when it takes none. */
  request: z.ZodType | null;
  /** The procedure's output schema. */
  response: z.ZodType;
  /** True for queries: they stop (their signal aborts) when the client goes away. */
  abortsOnDisconnect: boolean;
}
