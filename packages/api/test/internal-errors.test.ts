import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { type ControlPlaneEngine, createControlPlaneHandler } from "../src/index";

/** Transport-level check with a broken engine: a bug is a 500 with a reference, logged, never leaked. */
describe("unexpected errors", () => {
  it("answer 500 with a generic message and log the original with the same reference", async () => {
    const failing = () => {
      throw new Error("pg: password authentication failed for user raas at /srv/secret.ts:12");
    };
    const engine = {
      getJob: async () => failing(),
      subscribe: () => () => {},
      onStageFinished: () => () => {},
      stats: failing,
    } as unknown as ControlPlaneEngine;
    const logged: Array<Record<string, unknown>> = [];
    const handler = createControlPlaneHandler({
      engine,
      auth: { requireViewerToken: false },
      collectProcessMetrics: false,
      logger: { debug() {}, info() {}, warn() {}, error: (fields) => logged.push(fields) },
    });
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      for (const path of ["/api/v1/jobs/job_1", "/trpc/jobs.get?input=%7B%22id%22%3A%22job_1%22%7D"]) {
        const response = await fetch(`http://127.0.0.1:${port}${path}`);
        const text = await response.text();
        expect(response.status).toBe(500);
        expect(text).toContain("internal error (reference err_");
        expect(text).not.toMatch(/password|secret|\.ts:/);
        const reference = /reference (err_\w+)/.exec(text)?.[1];
        expect(
          logged.some((fields) => fields.reference === reference && String(fields.err).includes("password")),
        ).toBe(true);
      }
    } finally {
      server.closeAllConnections();
      server.close();
      handler.close();
    }
  });
});
