// Entry point of the execution server inside a sandbox. Bundled to one CommonJS file (with
// node-pty left external) so plain `node` runs it without tsx or TypeScript.
import { EXEC_READY_LINE } from "../protocol/exec-protocol.types";
import { ExecServer } from "./exec-server";
import type { ExecServerConfig } from "./exec-server.types";

const encoded = process.argv[2];
if (!encoded) {
  process.stderr.write("usage: exec-server <base64 JSON config>\n");
  process.exit(2);
}
const config = JSON.parse(Buffer.from(encoded, "base64").toString("utf8")) as ExecServerConfig;
const server = new ExecServer(config);

const shutdown = (code: number) => {
  server.close();
  process.exit(code);
};
// The host holds our stdin open for our whole life; EOF means the host is gone.
process.stdin.on("end", () => shutdown(0));
process.stdin.on("error", () => shutdown(0));
process.stdin.resume();
process.on("SIGTERM", () => shutdown(0));

server.listen().then(
  () => process.stdout.write(`${EXEC_READY_LINE}\n`),
  (error: unknown) => {
    process.stderr.write(
      `exec server failed to listen: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    shutdown(1);
  },
);
