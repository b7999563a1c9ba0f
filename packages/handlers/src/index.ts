export * from "./base/agent-handler.types";
export * from "./base/agent-payload.schema";
export * from "./base/define-agent-handler";
export * from "./base/infrastructure-guard";
export * from "./base/sandbox-toolbox";
export * from "./base/submit-tool";
