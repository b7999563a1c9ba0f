export * from "./conversation/drift-check";
export * from "./conversation/token-conversation";
export * from "./model/model-family.types";
export * from "./model/python-json";
export * from "./model/qwen3/hermes-tool-call.parser";
export * from "./model/qwen3/qwen3-chat-template";
export * from "./model/qwen3/qwen3-model-family";
export * from "./model/qwen3/qwen3-tokenizer";
