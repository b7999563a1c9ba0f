import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { BridgeRefusal } from "./http-socket-bridge";

const REQUEST_TIMEOUT_RESPONSE =
  "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
const BAD_REQUEST_RESPONSE = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";

/**
 * Caps the bridge's connections at `maxConnections`, counts the open ones, and refuses (counted
 * by `refuse`) one too many and a request that arrives too slowly.
 */
export function guardBridgeConnections(
  server: Server,
  maxConnections: number,
  refuse: (refusal: BridgeRefusal) => void,
): { readonly open: number } {
  server.maxConnections = maxConnections;
  let open = 0;
  server.on("connection", (socket: Socket) => {
    open += 1;
    socket.once("close", () => {
      open -= 1;
    });
  });
  // Node closes the connection past maxConnections right after accepting it; only counted here.
  server.on("drop", () => refuse("connections"));
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    const isTimeout = error.code === "ERR_HTTP_REQUEST_TIMEOUT";
    if (isTimeout) refuse("timeout");
    // As node answers when nobody listens: a status line unless an answer has begun, then close.
    if (socket.writable && socket.bytesWritten === 0) {
      socket.write(isTimeout ? REQUEST_TIMEOUT_RESPONSE : BAD_REQUEST_RESPONSE);
    }
    socket.destroy();
  });
  return {
    get open() {
      return open;
    },
  };
}
