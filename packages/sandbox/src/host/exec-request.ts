import type { SandboxExecOptions } from "@raas/engine";
import { sandboxFailure } from "@raas/shared";
import type { ExecRequestBody, ExecResultByOp } from "../protocol/exec-protocol.types";
import { type ExecClient, ExecRequestError } from "./exec-client";

/** Runs one request to the execution server; its refusals become `forbidden`/`request_failed` sandbox failures. */
export async function callExecServer<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof ExecRequestError) {
      const reason = error.body.code === "forbidden" ? "forbidden" : "request_failed";
      throw sandboxFailure(reason, error.message, { details: { code: error.body.code }, cause: error });
    }
    throw error;
  }
}

/**
 * One request that must be answered within `hangMs` (the server's own time limit plus slack):
 * without an answer by then it fails as `crashed` (the server hangs). An abort of `signal`
 * asks the server to cancel the request.
 */
export async function requestWithDeadline<Op extends "tool" | "exec">(
  client: ExecClient,
  body: Extract<ExecRequestBody, { op: Op }>,
  hangMs: number,
  signal: AbortSignal | undefined,
): Promise<ExecResultByOp[Op]> {
  let requestId: number | undefined;
  const onAbort = () => {
    if (requestId !== undefined) client.request({ op: "cancel", targetId: requestId }).catch(() => undefined);
  };
  let hangTimer: NodeJS.Timeout | undefined;
  try {
    const call = callExecServer(() =>
      client.request(body, (id) => {
        requestId = id;
        if (signal?.aborted) onAbort();
        else signal?.addEventListener("abort", onAbort, { once: true });
      }),
    );
    const hang = new Promise<never>((_, reject) => {
      hangTimer = setTimeout(
        () =>
          reject(
            sandboxFailure(
              "crashed",
              `${(body as { op: string }).op} call got no answer within ${hangMs} ms`,
            ),
          ),
        hangMs,
      );
    });
    return await Promise.race([call, hang]);
  } finally {
    clearTimeout(hangTimer);
    signal?.removeEventListener("abort", onAbort);
  }
}

/** The request that runs `argv` as one command (`Sandbox.exec`), killed whole after `timeoutMs`. */
export function execRequestBody(
  argv: readonly string[],
  options: SandboxExecOptions,
  timeoutMs: number,
): Extract<ExecRequestBody, { op: "exec" }> {
  return {
    op: "exec",
    argv: [...argv],
    timeoutMs,
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    ...(options.env !== undefined ? { env: options.env } : {}),
    ...(options.stdin !== undefined ? { stdinB64: Buffer.from(options.stdin).toString("base64") } : {}),
    ...(options.maxOutputBytes !== undefined ? { maxOutputBytes: options.maxOutputBytes } : {}),
    ...(options.readOnlyWorkspace ? { readOnlyWorkspace: true } : {}),
    ...(options.addressSpaceBytes !== undefined ? { addressSpaceBytes: options.addressSpaceBytes } : {}),
  };
}
