export * from "./action-repeat-detector";
export * from "./agent-loop";
export * from "./agent-loop.types";
export * from "./observation-text";
export * from "./tool-arguments.validator";
export * from "./tool-call-failure";
