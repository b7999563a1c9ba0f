export {
  type TAnthropicAnswerBlock,
  type TAnthropicContentBlock,
  type TAnthropicCountTokensRequest,
  type TAnthropicMessage,
  type TAnthropicMessageParam,
  type TAnthropicMessagesRequest,
  type TAnthropicStopReason,
  ZAnthropicCountTokensRequest,
  ZAnthropicMessagesRequest,
} from "./anthropic-messages.schema";
export { assertNever } from "./assert-never";
export {
  ADAPTIVE_SAMPLING_DEFAULTS,
  PASS_RATE_BIN_EDGES,
  type TAdaptiveSampling,
  type TCurriculumSnapshot,
  type TCurriculumStats,
  type TCurriculumTaskCounts,
  type TTaskSampling,
  ZCurriculumStats,
} from "./curriculum.schema";
export {
  DEFAULT_DATA_DIR,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MODEL_NAME,
  DEFAULT_SERVER_HOST,
  DEFAULT_SERVER_PORT,
  DEFAULT_SERVER_URL,
  MAX_JOB_WAIT_MS,
  SIMULATED_MODEL_NAME,
} from "./defaults";
export {
  abortFailure,
  blamePolicy,
  callerConfigFailure,
  type Failure,
  FailureError,
  failureOf,
  type InferenceFailureDetail,
  isStageFailureData,
  policyFailure,
  REQUEST_CODES,
  type RequestFailureData,
  requestFailure,
  type SandboxFailureData,
  type StageFailureData,
  sandboxFailure,
  stageFailure,
  type TAbortCause,
  type TInferenceFailureReason,
  type TRequestCode,
  type TStageFailureKind,
} from "./failure";
export {
  formatIssue,
  formatIssueList,
  formatIssues,
  hasSchemaIssues,
  issuesAsDetails,
  type SchemaIssue,
} from "./format-issues";
export { type TGatewayCallPage, type TGatewayCallView, ZGatewayCallPage } from "./gateway-call-view.schema";
export {
  type TGatewayApi,
  type TGatewayCall,
  type TGatewayCallRecord,
  type TGatewayExchange,
  type TGatewayTraces,
  type TToolChoiceViolation,
  type TTraceBreak,
  type TTraceCertificate,
  type TTraceChain,
  ZGatewayCallRecord,
  ZGatewayTraces,
} from "./gateway-trace.schema";
export {
  defaultAllowedHosts,
  hostRefusedMessage,
  isHostAllowed,
  LOOPBACK_HOSTS,
  ZAllowedHostsVariable,
} from "./host-allow-list";
export {
  findNulCharacter,
  hasControlCharacter,
  ZId,
  zIdString,
  zJsonObjectWithoutNul,
} from "./id.schema";
export { newId } from "./ids";
export {
  SUBMIT_REQUEST_FIELDS,
  type TCancelRequest,
  type TFailure,
  type TJob,
  type TJobListQuery,
  type TJobListRequest,
  type TJobListResponse,
  type TStageTimings,
  type TSubmitJobParsed,
  type TSubmitJobRequest,
  ZCancelRequest,
  ZJob,
  ZJobListRequest,
  ZJobListResponse,
  ZSubmitJobRequest,
} from "./job.schema";
export { runImageMetadata, runImageOf } from "./job-image";
export type { TJobListTrajectoryFilters } from "./job-list-trajectory-filters.schema";
export {
  FAILURE_KINDS,
  FAILURE_LABELS,
  isTerminalStatus,
  JOB_STATUSES,
  TERMINAL_STATUSES,
  type TFailureKind,
  type TFailureLabel,
  type TJobStatus,
  ZFailureLabel,
} from "./job-status";
export type {
  TChatCompletion,
  TChatCompletionRequest,
  TOpenAiAssistantMessage,
  TOpenAiMessage,
  TOpenAiTool,
  TOpenAiToolCall,
} from "./openai-chat.schema";
export { parseChatCompletionRequest } from "./openai-chat-fast-parse";
export {
  type TResponsesInputItem,
  type TResponsesOutputItem,
  type TResponsesRequest,
  type TResponsesResponse,
  ZResponsesRequest,
} from "./openai-responses.schema";
export {
  DEFAULT_POLICY_ID,
  initialPolicyState,
  type TPauseMode,
  type TPauseRequest,
  type TPolicyState,
  type TResumeRequest,
  ZPauseRequest,
  ZPolicyId,
  ZPolicyIdRequest,
  ZPolicyList,
  ZPolicyState,
  ZResumeRequest,
  ZSetPolicyVersionRequest,
} from "./policy.schema";
export { createSecretRedactor, redactFields } from "./redact-secrets";
export {
  type TCreateRunRequest,
  type TRun,
  type TRunRetention,
  ZCreateRunRequest,
  ZImageReference,
  ZRun,
} from "./run.schema";
export {
  type THarnessSamplingMode,
  type TSamplingParams,
  ZHarnessSamplingMode,
} from "./sampling.schema";
export { seededRandom } from "./seeded-random";
export { nextStage, STAGES, type TStage, ZStage } from "./stage";
export { type TEngineStats, ZEngineStats } from "./stats.schema";
export {
  type TCreateStepParsed,
  type TCreateStepRequest,
  type TStepTask,
  type TTaskSource,
  ZCreateStepRequest,
  ZStepTask,
} from "./step.schema";
export {
  emptyStepStats,
  type TGroup,
  type TGroupDecision,
  type TGroupMember,
  type TGroupResult,
  type TGroupState,
  type TStep,
  type TStepFailure,
  type TStepJobFailures,
  type TStepStats,
  type TStepStatus,
  type TStepTrajectory,
  type TWasteEntry,
  type TWasteLedger,
  ZGroup,
  ZGroupResult,
  ZStep,
  ZStepStats,
} from "./step-result.schema";
export { type TTeacher, type TTeacherScore, ZTeacher } from "./teacher.schema";
export {
  checkTokenDrift,
  type DriftViolation,
} from "./token-drift";
export {
  SANDBOX_STATES,
  type TSandboxEvent,
  type TSandboxState,
  type TToolCall,
  type TTurn,
  type TWeightVersionSpan,
  ZSandboxEvent,
  ZToolCall,
  ZTurn,
} from "./trajectory.schema";
export {
  type TTokenBreak,
  type TTrajectoryExport,
  type TTrajectoryExportPage,
  type TTurnSpan,
  ZTrajectoryExport,
  ZTrajectoryExportPage,
} from "./trajectory-export.schema";
export {
  type TExportedTurnReward,
  type TTurnReward,
  ZTurnRewards,
} from "./turn-reward.schema";
export { hasUrlUserinfo, redactUrlUserinfo, URL_USERINFO_MESSAGE } from "./url-userinfo";
export { ZWorkerLabelsVariable } from "./worker-labels";
export { ZWorkerPoolsVariable } from "./worker-pools";
