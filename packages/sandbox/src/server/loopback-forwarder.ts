// Runs inside a sandbox that has no network: listens on the sandbox's own loopback and forwards
// every TCP connection over a Unix socket to the host (where the host's bridge serves the job's
// inference gateway), then runs the harness command with `OPENAI_BASE_URL` and `OPENAI_API_KEY`
// pointing at that listener, and exits with the harness's exit code.
//
//   node loopback-forwarder.cjs --socket <unix socket> [--api-key <key>] [--max-connections <n>]
//     [--port <n>] -- <command> [args…]
//
// `--port` fixes the loopback port (default any free one): a harness whose configuration must
// name the gateway's URL before it starts (a config file) is given that port's URL.
//
// Node built-ins only: this file is bundled and run by the sandbox's node.
import { spawn } from "node:child_process";
import { connect, createServer, type Server, type Socket } from "node:net";

export interface ForwarderArgs {
  socketPath: string;
  apiKey: string;
  /** Most connections forwarded at once; more are closed at once. Default {@link DEFAULT_MAX_CONNECTIONS}. */
  maxConnections: number;
  /** Loopback port to listen on; 0 = any free one. */
  port: number;
  command: string[];
}

/**
 * Connections the forwarder holds at once by default: the host's bridge allows as many, so a
 * harness that opens more learns it here, from a closed connection, before the host sees them.
 */
const DEFAULT_MAX_CONNECTIONS = 32;

/** Parses `--socket <path> [--api-key <key>] [--max-connections <n>] [--port <n>] -- <command…>`; throws a readable error. */
export function parseForwarderArgs(argv: readonly string[]): ForwarderArgs {
  const split = argv.indexOf("--");
  const flags = split === -1 ? argv : argv.slice(0, split);
  const command = split === -1 ? [] : argv.slice(split + 1);
  const value = (name: string) => {
    const index = flags.indexOf(`--${name}`);
    return index === -1 ? undefined : flags[index + 1];
  };
  const socketPath = value("socket");
  if (!socketPath) throw new Error("loopback-forwarder: --socket <unix socket path> is required");
  if (command.length === 0) throw new Error("loopback-forwarder: give the command to run after --");
  const max = value("max-connections");
  const maxConnections = max === undefined ? DEFAULT_MAX_CONNECTIONS : Number(max);
  if (!Number.isInteger(maxConnections) || maxConnections < 1) {
    throw new Error(`loopback-forwarder: --max-connections takes a positive integer (got ${max})`);
  }
  const portValue = value("port");
  const port = portValue === undefined ? 0 : Number(portValue);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`loopback-forwarder: --port takes a port number (got ${portValue})`);
  }
  return { socketPath, apiKey: value("api-key") ?? "raas-gateway", maxConnections, port, command };
}

/**
 * A loopback listener piping each connection to `socketPath`, at most `maxConnections` at once
 * (one more is closed as soon as it is accepted; the first such is reported on stderr). Resolves
 * with its port.
 */
function listenLoopback(
  socketPath: string,
  maxConnections = DEFAULT_MAX_CONNECTIONS,
  port = 0,
): Promise<{ server: Server; port: number }> {
  const server = createServer((client: Socket) => {
    const upstream = connect(socketPath);
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.once("error", end);
    upstream.once("error", (error) => {
      process.stderr.write(`loopback-forwarder: ${socketPath}: ${error.message}\n`);
      end();
    });
    client.once("close", () => upstream.end());
    upstream.once("close", () => client.end());
  });
  server.maxConnections = maxConnections;
  server.once("drop", () => {
    process.stderr.write(
      `loopback-forwarder: more than ${maxConnections} connections to the gateway at once; closing the excess\n`,
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      resolve({ server, port: typeof address === "object" && address ? address.port : 0 });
    });
  });
}

async function main(): Promise<void> {
  let args: ForwarderArgs;
  try {
    args = parseForwarderArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
  const { server, port } = await listenLoopback(args.socketPath, args.maxConnections, args.port);
  const [command] = args.command as [string, ...string[]];
  // `env` adds the two variables to the environment the command inherits from this process.
  const child = spawn(
    "env",
    [`OPENAI_BASE_URL=http://127.0.0.1:${port}/v1`, `OPENAI_API_KEY=${args.apiKey}`, ...args.command],
    { stdio: "inherit" },
  );
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on("SIGTERM", forward);
  process.on("SIGINT", forward);
  child.once("error", (error) => {
    process.stderr.write(`loopback-forwarder: cannot start ${command}: ${error.message}\n`);
    server.close();
    process.exit(127);
  });
  child.once("exit", (code, signal) => {
    server.close();
    process.exit(code ?? (signal ? 128 + 9 : 1));
  });
}

if (process.argv[1] && /loopback-forwarder\.(c?js|ts)$/.test(process.argv[1])) {
  void main();
}
