export { ExecRequestError } from "./host/exec-client";
export {
  BRIDGE_DEFAULTS,
  type BridgeRefusal,
  type HttpSocketBridge,
  type HttpSocketBridgeOptions,
  isGatewayRequest,
  startHttpSocketBridge,
} from "./host/http-socket-bridge";
export { type LaunchPlan, ManagedSandbox } from "./host/managed-sandbox";
export { isProcessAlive, listProcessTree, processIdentity } from "./host/process-tree";
export { SandboxError, type SandboxFailureReason } from "./host/sandbox-error";
export type { ExecFileEntry, ExecHealth } from "./protocol/exec-protocol.types";
export { type ApptainerCommandInput, buildApptainerArgs } from "./runtimes/apptainer-command";
export { ApptainerRuntime, type ApptainerRuntimeOptions } from "./runtimes/apptainer-runtime";
export { BaseRuntime } from "./runtimes/base-runtime";
export { type BubblewrapCommandInput, buildBubblewrapArgs } from "./runtimes/bubblewrap-command";
export { BubblewrapRuntime, type BubblewrapRuntimeOptions } from "./runtimes/bubblewrap-runtime";
export {
  type CreateSandboxRuntimeOptions,
  createSandboxRuntime,
  type SandboxRuntimeKind,
} from "./runtimes/create-sandbox-runtime";
export { findExecutable } from "./runtimes/find-executable";
export { LOCAL_RUNTIME_WARNING, LocalRuntime, type LocalRuntimeOptions } from "./runtimes/local-runtime";
export {
  DEFAULT_LIMITS,
  DEFAULT_WORKSPACE_SIZE_BYTES,
  type SandboxRuntimeOptions,
} from "./runtimes/runtime-options";
export { sizeTmpfsMounts, type TmpfsSizes } from "./runtimes/tmpfs-sizes";
export { BASH_TOOL_SPEC, EDITOR_TOOL_SPEC, PYTHON_TOOL_SPEC, SANDBOX_TOOL_SPECS } from "./tools/tool-specs";
