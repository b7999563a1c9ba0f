// Writing a secret where only a person at the terminal sees it, never into a log (`npm start > log`,
// a service manager's journal, a Slurm output file).
import { closeSync, openSync, writeSync } from "node:fs";

/**
 * Writes `text` to `stream` when it is a terminal, else to the controlling terminal (`/dev/tty`);
 * a redirected stream is a log file or a pipe into one. Returns false when there is no terminal:
 * then nothing is written.
 */
export function writeToTerminal(text, stream = process.stdout) {
  if (stream.isTTY) {
    stream.write(text);
    return true;
  }
  let fd = null;
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
