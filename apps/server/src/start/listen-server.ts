import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_SERVER_HOST, DEFAULT_SERVER_PORT } from "@raas/shared";
import type { ServerConfig } from "../server";
import { releaseServerParts } from "./close-server";
import type { ServerParts } from "./server-parts.types";

/**
 * Listens on the configured port and host. When that fails (e.g. the port is taken) it releases
 * what was built, so that an in-process caller can retry, and rethrows.
 */
export async function listenOrRelease(
  server: Server,
  config: ServerConfig,
  parts: ServerParts,
): Promise<AddressInfo> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(config.port ?? DEFAULT_SERVER_PORT, config.host ?? DEFAULT_SERVER_HOST, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    await releaseServerParts(parts);
    throw error;
  }
  return server.address() as AddressInfo;
}

/** `http://<host>:<port>`, IPv6 hosts in brackets. */
export function urlOfAddress(address: AddressInfo): string {
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
