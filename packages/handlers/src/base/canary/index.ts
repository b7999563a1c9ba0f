export * from "./canary.schema";
export * from "./canary.types";
export * from "./canary-plan";
export * from "./canary-verdict";
export * from "./tampered-failure";
