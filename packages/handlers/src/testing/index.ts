export * from "./forgery-corpus";
