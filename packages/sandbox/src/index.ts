export {
  type BridgeRefusal,
  isGatewayRequest,
  startHttpSocketBridge,
} from "./host/http-socket-bridge";
export { ManagedSandbox } from "./host/managed-sandbox";
export { isProcessAlive, processIdentity } from "./host/process-tree";

export { HeldImageList } from "./images/held-image-list";
export { ImageCache } from "./images/image-cache";
export { ApptainerRuntime } from "./runtimes/apptainer-runtime";

export {
  BubblewrapRuntime,
  type BubblewrapRuntimeOptions,
  DEFAULT_IMAGE_CACHE_DIR,
} from "./runtimes/bubblewrap-runtime";
export { createSandboxRuntime } from "./runtimes/create-sandbox-runtime";
export { findExecutable } from "./runtimes/find-executable";
export { LOCAL_RUNTIME_WARNING, LocalRuntime } from "./runtimes/local-runtime";
export { DEFAULT_WORKSPACE_SIZE_BYTES } from "./runtimes/runtime-options";

export { SANDBOX_TOOL_SPECS } from "./tools/tool-specs";
