import { createRaasLogger as createServerLogger } from "@raas/compose";
import { describe, expect, it } from "vitest";
import { startServer } from "../src/server";

const TOKENS = { admin: "log-admin-token-42", viewer: "log-viewer-token-42" };

describe("the server's log output carries no token", () => {
  it("an SSE error logs the path without the query; tokens of any component are scrubbed", async () => {
    const written: string[] = [];
    const logger = createServerLogger("info", {
      secrets: [TOKENS.admin, TOKENS.viewer],
      destination: { write: (line: string) => written.push(line) },
    });
    const running = await startServer({
      port: 0,
      logger,
      agentHandlers: false,
      auth: { adminToken: TOKENS.admin, viewerToken: TOKENS.viewer },
    });
    try {
      // A store failure while a subscription attaches: the API logs it as an unexpected error.
      running.engine.subscribe = () => {
        throw new Error("job store connection lost");
      };
      const params = encodeURIComponent(JSON.stringify({ token: TOKENS.viewer }));
      const response = await fetch(`${running.url}/trpc/jobs.events?connectionParams=${params}`, {
        headers: { accept: "text/event-stream" },
      });
      await response.text();
      // Another component logging a credential it was handed (a URL, a header, a config dump).
      logger.child({ component: "inference" }).warn(
        {
          url: `http://u:pw@gpu-1:8000/v1?token=${TOKENS.admin}`,
          headers: { authorization: `Bearer ${TOKENS.viewer}` },
          token: "unknown-token-value",
        },
        `retrying with Authorization: Bearer not-configured-but-secret and ${TOKENS.admin}`,
      );
      const lines = written.join("");
      const errorLine = written
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.msg === "unexpected error while serving a request");
      expect(errorLine?.path).toBe("/trpc/jobs.events");
      expect(errorLine).not.toHaveProperty("url");
      for (const secret of [
        TOKENS.admin,
        TOKENS.viewer,
        "unknown-token-value",
        "not-configured-but-secret",
        "pw@",
      ]) {
        expect(lines).not.toContain(secret);
      }
      expect(lines).toContain("Bearer [redacted]");
      expect(lines).toContain("http://***@gpu-1:8000");
    } finally {
      await running.close({ graceMs: 0 });
    }
  });
});
