import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createSecretRedactor } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { type ControlPlaneEngine, createControlPlaneHandler } from "../src/index";
import { readSse } from "./helpers/sse-reader";

const VIEWER = "viewer-token-0123456789";
const ADMIN = "admin-token-0123456789";

describe("tokens never reach the log", () => {
  it("an SSE error line carries the path without its query, and no token anywhere", async () => {
    // A broken engine (after the metrics' own subscription) turns the SSE subscription into an
    // unexpected error, which is logged.
    let subscriptions = 0;
    const engine = {
      subscribe: () => {
        subscriptions += 1;
        if (subscriptions === 1) return () => {};
        throw new Error(`store lost while serving Bearer ${ADMIN} (retry with token=${VIEWER})`);
      },
      onStageFinished: () => () => {},
    } as unknown as ControlPlaneEngine;
    const logged: Array<{ fields: Record<string, unknown>; message: string }> = [];
    const capture = (fields: Record<string, unknown>, message: string) => logged.push({ fields, message });
    const handler = createControlPlaneHandler({
      engine,
      auth: { adminToken: ADMIN, viewerToken: VIEWER, requireViewerToken: true },
      collectProcessMetrics: false,
      logger: { debug: capture, info: capture, warn: capture, error: capture },
    });
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const controller = new AbortController();
    try {
      const params = encodeURIComponent(JSON.stringify({ token: VIEWER }));
      const stream = readSse(`http://127.0.0.1:${port}/trpc/jobs.events?connectionParams=${params}`, {
        signal: controller.signal,
      });
      for await (const event of stream) if (event.event === "serialized-error") break;
      const errorLine = logged.find((line) => line.message === "unexpected error while serving a request");
      expect(errorLine?.fields.path).toBe("/trpc/jobs.events");
      expect(errorLine?.fields).not.toHaveProperty("url");
      expect(String(errorLine?.fields.err)).toContain("Bearer [redacted]");
      const text = JSON.stringify(logged, (_key, value) =>
        value instanceof Error ? `${value.message} ${value.stack}` : value,
      );
      expect(text).not.toContain(VIEWER);
      expect(text).not.toContain(ADMIN);
    } finally {
      controller.abort();
      server.closeAllConnections();
      server.close();
      handler.close();
    }
  });

  it("hides configured tokens, bearer values, token= and connectionParams= values and URL passwords", () => {
    const redact = createSecretRedactor([ADMIN, undefined, "short"]);
    expect(redact(`x ${ADMIN} y`)).toBe("x [redacted] y");
    expect(redact("Authorization: Bearer abc.def")).toBe("Authorization: Bearer [redacted]");
    expect(redact("/trpc/jobs.events?token=abc&x=1")).toBe("/trpc/jobs.events?token=[redacted]&x=1");
    expect(redact("/trpc/jobs.events?connectionParams=%7B%22token%22%3A%22abc%22%7D")).toBe(
      "/trpc/jobs.events?connectionParams=[redacted]",
    );
    expect(redact('{"token":"abc","id":1}')).toBe('{"token":"[redacted]","id":1}');
    expect(redact("GET http://u:pw@gpu-1:8000/health")).toBe("GET http://***@gpu-1:8000/health");
    expect(redact("a short word")).toBe("a short word");
  });
});
