export * from "./backend-stats";
export * from "./circuit-breaker";
export * from "./min-heap";
export * from "./routing.types";
export * from "./sticky-router";
