export * from "./adaptive-sampler";
export * from "./curriculum-summary";
export * from "./curriculum-tracker";
export * from "./task-history";
