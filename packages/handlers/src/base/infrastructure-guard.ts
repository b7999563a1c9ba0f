import { asStageFailure, type Sandbox } from "@raas/engine";

export { asStageFailure };

/**
 * The sandbox seen by handler code: any error from it is an infrastructure (`sandbox`) failure,
 * so a crashed sandbox during setup or EVAL never turns into a grading error or a reward of 0.
 * A sandbox failure blamed on the policy (`blamePolicy`) does not change that here: a handler's own
 * step is not the policy's call. Only the agent loop's tool calls honour that blame.
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
    exec: (argv, options) =>
      guard(`sandbox command ${argv[0] ?? ""} failed`, () => sandbox.exec(argv, { signal, ...options })),
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
