import { request as httpRequest } from "node:http";
import { expect, test } from "@playwright/test";
import { E2E_TOKENS, e2eUrls } from "../support/e2e-env";

/** One raw HTTP exchange, so the test can set `Host` and stream a body of its choice. */
function exchange(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: Buffer },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: init.method ?? "GET", headers: init.headers, agent: false },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    // The proxy may close the connection before taking the whole body; the answer is what counts.
    req.on("error", (error) =>
      String(error).includes("EPIPE") || String(error).includes("ECONNRESET") ? undefined : reject(error),
    );
    req.end(init.body);
  });
}

test("the dashboard and the server refuse a rebinding Host name and serve their own", async () => {
  const { serverUrl, webUrl } = e2eUrls();
  for (const base of [webUrl, serverUrl]) {
    const refused = await exchange(`${base}/health`, { headers: { host: "attacker.example" } });
    expect(refused.status, base).toBe(403);
    expect(refused.text).toContain("RAAS_ALLOWED_HOSTS");
  }
  const page = await exchange(webUrl, { headers: { host: `localhost:${new URL(webUrl).port}` } });
  expect(page.status).toBe(200);
});

test("the dashboard's proxy answers 413 to a body over the server's limit, and forwards one within it", async () => {
  const { webUrl } = e2eUrls();
  const headers = { "content-type": "application/json", authorization: `Bearer ${E2E_TOKENS.trainer}` };
  const big = await exchange(`${webUrl}/api/trpc/jobs.submit`, {
    method: "POST",
    headers,
    body: Buffer.alloc(2 * 1024 * 1024, 32), // 2 MiB of spaces: over the default 1 MiB
  });
  expect(big.status).toBe(413);
  expect(JSON.parse(big.text).error.data.code).toBe("PAYLOAD_TOO_LARGE");
  const small = await exchange(`${webUrl}/api/trpc/jobs.submit`, {
    method: "POST",
    headers,
    body: Buffer.from(JSON.stringify({ kind: "sleep", payload: { initMs: 1, runMs: 1, evalMs: 1 } })),
  });
  expect(small.status).toBe(200);
  expect(JSON.parse(small.text).result.data.job.kind).toBe("sleep");
});
