export * from "./backend-directory";
export * from "./merge-backend-views";
