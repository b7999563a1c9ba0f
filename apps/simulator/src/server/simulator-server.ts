import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { SimulatedModel } from "../engine/simulated-model";
import { FaultInjector } from "./fault-injector";
import { answerError } from "./simulator-http";
import { createSimulatorRoutes } from "./simulator-routes";

/**
 * Injected faults for failure tests. `http-500` answers generations with a 500, `drop-connection`
 * destroys the socket before any byte, `hang` never answers, `bad-body` returns JSON missing the
 * token ids (a stream: chunks without them), `unhealthy` fails `/health`. Applies to the next `remaining` requests (default: all).
 */
export interface SimulatorFault {
  kind: "http-500" | "drop-connection" | "hang" | "bad-body" | "unhealthy";
  remaining?: number;
}

export interface SimulatorServerOptions {
  model: SimulatedModel;
  modelName: string;
  host?: string;
  port?: number;
}

export interface SimulatorServer {
  url: string;
  server: Server;
  setFault(fault: SimulatorFault | null): void;
  /** Stops listening and drops every connection (in-flight requests die): a backend going down. */
  stopListening(): Promise<void>;
  /** Listens again on the same host and port with a cold prefix cache, like a restarted server. */
  listenAgain(): Promise<void>;
  close(): Promise<void>;
}

export async function startSimulatorServer(options: SimulatorServerOptions): Promise<SimulatorServer> {
  const { model } = options;
  const faults = new FaultInjector();
  const handle = createSimulatorRoutes(model, options.modelName, faults);
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => answerError(res, error));
  });
  server.keepAliveTimeout = 60_000;
  await listen(server, options.port ?? 0, options.host ?? "127.0.0.1");
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    server,
    setFault: (next) => faults.set(next),
    stopListening: () => stop(server),
    listenAgain: () => {
      model.cache.clear();
      return listen(server, address.port, address.address);
    },
    close: () => stop(server),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function stop(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    // Resolves also when the server was already stopped (the callback then carries an error).
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
