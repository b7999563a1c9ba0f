export { HttpInferenceBackend } from "./backends/http-inference-backend";
export type {
  BackendGenerateRequest,
  BackendGeneration,
  InferenceBackend,
} from "./backends/inference-backend.types";

export { vllmCompletionsCodec } from "./backends/vllm-completions.codec";

export {
  createGptOssChatFormat,
  createModelChatFormat,
  createQwen3ChatFormat,
} from "./chat-format/model-chat-format";
export { TokenConversation } from "./conversation/token-conversation";

export { InferenceGateway } from "./gateway/inference-gateway";
export { toOpenAiAnswer } from "./gateway/openai-answer";
export { toChatMessage, toToolSpecs } from "./gateway/openai-messages";

export { JsonHttpClient } from "./http/json-http-client";
export { type InferenceFailure, isInferenceFailure } from "./inference-failure";
export { JudgeBackendPool, type JudgeBackendRegistration } from "./judge/judge-backend-pool";
export {
  checkFamilyConversations,
  type FamilyConversationReport,
} from "./model/family-check/check-family-conversations";
export { createGptOssModelFamily } from "./model/harmony/gpt-oss-model-family";
export type {
  ModelFamilyAdapter,
  ToolCall,
} from "./model/model-family.types";
export { createQwen3ModelFamily } from "./model/qwen3/qwen3-model-family";
export { loadQwen3LibraryEncode, loadQwen3Tokenizer } from "./model/qwen3/qwen3-tokenizer";
export { createSegmentCachedTokenizer } from "./model/segment-cached-tokenizer";
export {
  type DirectoryModelFamily,
  loadDirectoryModelFamily,
} from "./model/template/template-model-family";
export { loadDirectoryTokenizerWithBaseline } from "./model/tokenizer/tokenizer-files";
export {
  DEFAULT_HEALTH_CHECK_INTERVAL_MS,
  startHealthMonitor,
} from "./pool/health-monitor";
export { RoutedInferencePool, type RoutedInferencePoolOptions } from "./pool/routed-inference-pool";
