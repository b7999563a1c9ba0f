import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";

/**
 * Writes `text` where only a person at the terminal sees it, never into a log: to `stream` when it
 * is a terminal, else to the controlling terminal (`/dev/tty`) — a redirected stream is a log file
 * or a pipe into one. Returns false when there is no terminal (a service manager, a batch job, a
 * detached process): then nothing is written.
 */
export function writeToTerminal(text: string, stream: NodeJS.WriteStream = process.stderr): boolean {
  if (stream.isTTY) {
    stream.write(text);
    return true;
  }
  let fd: number | null = null;
  try {
    fd = openSync("/dev/tty", "w");
    writeSync(fd, text);
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * Saves a generated admin token as `<dataDir>/admin-token`, readable by its owner only (the data
 * directory owner-only too), where `npm start` and the CLI look for it. Returns the file's path.
 */
export function saveAdminToken(dataDir: string, token: string): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, "admin-token");
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return file;
}
