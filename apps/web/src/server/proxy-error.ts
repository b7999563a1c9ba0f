/**
 * A tRPC-shaped error response, so the browser's tRPC client shows our message (instead of
 * "Unexpected token <") when the control plane cannot be reached.
 */
export function proxyErrorResponse(status: number, code: string, message: string): Response {
  const body = {
    error: {
      message,
      code: -32_603,
      data: { code, httpStatus: status, path: undefined, details: undefined },
    },
  };
  return Response.json(body, { status, headers: { "cache-control": "no-store" } });
}
