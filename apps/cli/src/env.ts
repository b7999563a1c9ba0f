import { DEFAULT_DATA_DIR, DEFAULT_SERVER_URL, formatIssueList } from "@raas/shared";
import { z } from "zod";

/** Every environment variable the CLI reads. The only place that reads `process.env`. */
const ZCliEnv = z.object({
  /** Control-plane URL. Default http://127.0.0.1:8080 (`DEFAULT_SERVER_URL`). */
  RAAS_URL: z.url({ error: `expected a URL like ${DEFAULT_SERVER_URL}` }).default(DEFAULT_SERVER_URL),
  /** Bearer token (trainer or admin for writes). Default: the token `npm start` wrote under RAAS_DATA_DIR. */
  RAAS_TOKEN: z.string().trim().min(1).optional(),
  /** Where `npm start` keeps embedded data and its generated admin token. Default ./.raas */
  RAAS_DATA_DIR: z.string().trim().min(1).default(DEFAULT_DATA_DIR),
  /** Disable colours and progress redraws. */
  NO_COLOR: z.string().optional(),
});
export type TCliEnv = z.infer<typeof ZCliEnv>;

export function loadCliEnv(source: Record<string, string | undefined> = process.env): TCliEnv {
  const parsed = ZCliEnv.safeParse(
    Object.fromEntries(Object.keys(ZCliEnv.shape).map((key) => [key, source[key] || undefined])),
  );
  if (parsed.success) return parsed.data;
  const lines = formatIssueList(parsed.error.issues, { root: "environment" }).map((line) => `  ${line}`);
  throw new Error(`invalid environment:\n${lines.join("\n")}`);
}
