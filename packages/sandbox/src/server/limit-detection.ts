import type { ExecToolResult } from "../protocol/exec-protocol.types";

// Messages that only appear when an rlimit refused a resource.
const PROCESS_LIMIT = /fork: (retry: )?Resource temporarily unavailable|Cannot fork|can't fork/;
// Python's refused fork (os.fork, subprocess, multiprocessing) ends the traceback with EAGAIN as a
// BlockingIOError. A non-blocking socket's EAGAIN reads alike, but a sandbox has no network to
// wait on, so an uncaught one as the output's last line is taken as the process limit.
const PYTHON_PROCESS_LIMIT = /BlockingIOError: \[Errno 11\] Resource temporarily unavailable\s*$/;
const MEMORY_LIMIT = /MemoryError|Cannot allocate memory|std::bad_alloc|out of memory/i;
const SIGXCPU_EXIT = 128 + 24;
const SIGXFSZ_EXIT = 128 + 25;

/** Which sandbox limit visibly stopped a tool call, judged from its output and exit code. */
export function limitHitOf(
  output: string,
  exitCode: number | null,
  isTruncated: boolean,
): Pick<ExecToolResult, "limitHit"> {
  if (exitCode === SIGXCPU_EXIT || /CPU time limit exceeded/.test(output)) return { limitHit: "cpu" };
  if (exitCode === SIGXFSZ_EXIT || /File size limit exceeded/.test(output)) return { limitHit: "fileSize" };
  if (PROCESS_LIMIT.test(output) || PYTHON_PROCESS_LIMIT.test(output)) return { limitHit: "processes" };
  if (MEMORY_LIMIT.test(output)) return { limitHit: "memory" };
  if (isTruncated) return { limitHit: "output" };
  return {};
}
