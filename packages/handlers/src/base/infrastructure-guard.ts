import { isStageFailure, type Sandbox, StageFailure } from "@raas/engine";

/** Runs `work`; an abort rethrows the signal's reason, a `StageFailure` passes, anything else becomes `kind`. */
export async function asStageFailure<T>(
  kind: "sandbox" | "eval" | "inference",
  what: string,
  signal: AbortSignal,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (isStageFailure(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new StageFailure(kind, `${what}: ${reason}`, { cause: error });
  }
}

/**
 * The sandbox seen by handler code: any error from it is an infrastructure (`sandbox`) failure,
 * so a crashed sandbox during setup or EVAL never turns into a grading error or a reward of 0.
 */
export function guardSandbox(sandbox: Sandbox, signal: AbortSignal): Sandbox {
  const guard = <T>(what: string, work: () => Promise<T>) => asStageFailure("sandbox", what, signal, work);
  return {
    get id() {
      return sandbox.id;
    },
    get state() {
      return sandbox.state;
    },
    runTool: (name, args, options) =>
      guard(`sandbox tool ${name} failed`, () => sandbox.runTool(name, args, { signal, ...options })),
    readFile: (path) => guard(`reading ${path} from the sandbox failed`, () => sandbox.readFile(path)),
    writeFile: (path, data) =>
      guard(`writing ${path} to the sandbox failed`, () => sandbox.writeFile(path, data)),
    ...(sandbox.listFiles
      ? {
          listFiles: (path, options) =>
            guard("listing the sandbox failed", () => sandbox.listFiles!(path, options)),
        }
      : {}),
    ...(sandbox.downloadTar
      ? {
          downloadTar: (path) =>
            guard("downloading from the sandbox failed", () => sandbox.downloadTar!(path)),
        }
      : {}),
    ...(sandbox.uploadTar
      ? {
          uploadTar: (data, path) =>
            guard("uploading to the sandbox failed", () => sandbox.uploadTar!(data, path)),
        }
      : {}),
    close: () => sandbox.close(),
  };
}
