import { type CorpusConversation, generateConversations } from "../../chat-template/conversation-corpus";
import { TokenConversation } from "../../conversation/token-conversation";
import type { ChatMessage, ModelFamilyAdapter, PromptOptions, ToolCall } from "../model-family.types";
import { isTurnClosed } from "../turn-end";
import { fuzzResponse } from "./fuzz-response";

/** Renders a whole conversation with the family's own template (its history rendering), when it has one. */
export type RenderHistory = (messages: readonly ChatMessage[], options: PromptOptions) => string;

/** What a run over generated conversations found; every list is empty for a sound family. */
export interface FamilyConversationReport {
  family: string;
  conversations: number;
  /** Consecutive prompts checked: each must start with the one before it plus the sampled ids. */
  turnPairsChecked: number;
  prefixViolations: string[];
  /** Rendered assistant turns whose parse did not give back their tool calls, content or reasoning. */
  roundTripFailures: string[];
  /** Malformed responses (cut, mangled) given to the parser, and those that made it throw. */
  fuzzedResponses: number;
  parseCrashes: string[];
  /** Fuzzed responses the parser reported as malformed tool calls (the policy's failure, trainable). */
  malformedCallsReported: number;
  /** Later prompts where the template, re-rendering the history, would have written other tokens. */
  templateHistoryDifferences: number;
  firstHistoryDifference?: string;
  /** What the template refused and the check worked around (e.g. several tool calls in one turn). */
  unsupported: Record<string, number>;
}

/** A rendered turn as sampled: its own closing token kept, else the family's end of turn appended. */
function closeTurn(family: ModelFamilyAdapter, ids: number[]): number[] {
  return isTurnClosed(family, ids.at(-1)) ? ids : [...ids, family.endOfTurnId];
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function checkRoundTrip(
  family: ModelFamilyAdapter,
  text: string,
  expected: { toolCalls: readonly ToolCall[]; content: string; thinking: string | null },
  where: string,
): string | undefined {
  const parsed = family.parseResponse(text);
  if (!sameJson(parsed.toolCalls, expected.toolCalls)) {
    return `${where}: tool calls ${JSON.stringify(parsed.toolCalls)} ≠ ${JSON.stringify(expected.toolCalls)}`;
  }
  if (parsed.toolCallErrors.length > 0) {
    return `${where}: a well-formed turn gave errors: ${parsed.toolCallErrors[0]?.message}`;
  }
  if (expected.toolCalls.length === 0 && parsed.content.trim() !== expected.content.trim()) {
    return `${where}: content ${JSON.stringify(parsed.content)} ≠ ${JSON.stringify(expected.content)}`;
  }
  const { thinking } = parsed;
  if (thinking !== null && expected.thinking !== null && thinking.trim() !== expected.thinking.trim()) {
    return `${where}: thinking ${JSON.stringify(thinking)} ≠ ${JSON.stringify(expected.thinking)}`;
  }
  return undefined;
}

type StepParts = CorpusConversation["steps"][number];

/**
 * The step as the family's template can write it: as generated, else without content beside the
 * calls (DeepSeek V3's template drops one or the other), else with only the first call (Llama's
 * takes one per turn). The first form whose render parses back is used; a workaround is counted in
 * `unsupported`, a form that never parses back is a round-trip failure.
 */
function renderStep(
  family: ModelFamilyAdapter,
  step: StepParts,
  report: FamilyConversationReport,
  where: string,
) {
  const forms: { reason?: string; parts: StepParts }[] = [{ parts: step }];
  if (step.toolCalls.length > 0 && step.content !== "") {
    forms.push({ reason: "content beside tool calls", parts: { ...step, content: "" } });
  }
  if (step.toolCalls.length > 1) {
    forms.push({
      reason: "several tool calls in one turn",
      parts: { ...step, content: "", toolCalls: step.toolCalls.slice(0, 1) },
    });
  }
  let failure = "";
  for (const { reason, parts } of forms) {
    let text: string;
    try {
      text = family.renderAssistant(parts);
    } catch (error) {
      failure = `${where}: the template cannot render the turn: ${(error as Error).message}`;
      continue;
    }
    const ids = closeTurn(family, family.tokenizer.encode(text));
    const mismatch = checkRoundTrip(family, family.tokenizer.decode(ids), parts, where);
    if (mismatch && !step.isCut) {
      failure = mismatch;
      continue;
    }
    if (reason) report.unsupported[reason] = (report.unsupported[reason] ?? 0) + 1;
    return { text, toolCalls: parts.toolCalls };
  }
  report.roundTripFailures.push(failure);
  return { text: family.renderAssistant({ ...step, toolCalls: [] }), toolCalls: [] };
}

/**
 * Runs generated agent conversations (tool calls, tool errors, reasoning, long and cut responses)
 * through a family token-in/token-out, as rollouts do, and checks what a trainer relies on: every
 * prompt extends the one before with the sampled ids; rendered turns parse back to their calls;
 * malformed responses never crash the parser. With `renderHistory`, also counts where the family's
 * own template would have re-rendered the history differently (the drift appending avoids).
 */
export function checkFamilyConversations(
  family: ModelFamilyAdapter,
  options: {
    count: number;
    seed: number;
    renderHistory?: RenderHistory;
    /** False for a family with no tool-call format: turns carry no calls, results come back as user text. Default true. */
    hasToolCalls?: boolean;
  },
): FamilyConversationReport {
  const report: FamilyConversationReport = {
    family: family.family,
    conversations: options.count,
    turnPairsChecked: 0,
    prefixViolations: [],
    roundTripFailures: [],
    fuzzedResponses: 0,
    parseCrashes: [],
    malformedCallsReported: 0,
    templateHistoryDifferences: 0,
    unsupported: {},
  };
  const conversations = generateConversations(options.count, options.seed).map((conversation) =>
    options.hasToolCalls === false ? withoutToolCalls(conversation, report) : conversation,
  );
  conversations.forEach((conversation, n) => {
    const promptOptions = { tools: conversation.tools, enableThinking: conversation.enableThinking };
    const messages: ChatMessage[] = [
      ...(conversation.system === null ? [] : [{ role: "system" as const, content: conversation.system }]),
      { role: "user", content: conversation.firstUser },
    ];
    const tokens = TokenConversation.start(family, messages, promptOptions);
    conversation.steps.forEach((step, k) => {
      const where = `conversation ${n} turn ${k}`;
      const rendered = renderStep(family, step, report, where);
      const whole = family.tokenizer.encode(rendered.text);
      const responseIds = step.isCut
        ? whole.slice(0, Math.max(1, Math.floor(whole.length * 0.6)))
        : closeTurn(family, whole);
      for (const mangled of fuzzResponse(family.tokenizer.decode(responseIds), n * 31 + k)) {
        report.fuzzedResponses += 1;
        try {
          if (family.parseResponse(mangled).toolCallErrors.length > 0) report.malformedCallsReported += 1;
        } catch (error) {
          report.parseCrashes.push(
            `${where}: ${(error as Error).message} on ${JSON.stringify(mangled.slice(0, 120))}`,
          );
        }
      }
      if (step.observations.length === 0) return;
      const before = [...tokens.promptIds, ...responseIds];
      tokens.appendResponse(responseIds);
      const observations: ChatMessage[] = step.observations.map((observation, i) => ({
        ...observation,
        ...(observation.role === "tool" && {
          toolName: rendered.toolCalls[i]?.name ?? rendered.toolCalls[0]?.name,
        }),
      }));
      tokens.appendMessages(observations);
      report.turnPairsChecked += 1;
      if (!sameJson(tokens.promptIds.slice(0, before.length), before)) {
        report.prefixViolations.push(
          `${where}: the next prompt does not start with the previous prompt and the sampled ids`,
        );
      }
      // What a client that re-renders would send back: the response as parsed.
      const parsed = family.parseResponse(family.tokenizer.decode(responseIds));
      messages.push(
        {
          role: "assistant",
          content: parsed.content,
          thinking: parsed.thinking,
          toolCalls: parsed.toolCalls,
        },
        ...observations,
      );
      if (!options.renderHistory) return;
      const history = family.tokenizer.encode(options.renderHistory(messages, promptOptions));
      if (!sameJson(history, tokens.promptIds)) {
        report.templateHistoryDifferences += 1;
        report.firstHistoryDifference ??= describeDifference(family, tokens.promptIds, history, where);
      }
    });
  });
  return report;
}

function describeDifference(
  family: ModelFamilyAdapter,
  ours: readonly number[],
  theirs: readonly number[],
  where: string,
): string {
  let at = 0;
  while (at < ours.length && at < theirs.length && ours[at] === theirs[at]) at += 1;
  const show = (ids: readonly number[]) => JSON.stringify(family.tokenizer.decode(ids.slice(at, at + 12)));
  return `${where}, token ${at}: appended ${show(ours)}, template ${show(theirs)}`;
}

/** The conversation a family without a tool-call format can have: no calls, results as user text. */
function withoutToolCalls(
  conversation: CorpusConversation,
  report: FamilyConversationReport,
): CorpusConversation {
  const steps = conversation.steps.map((step) => {
    if (step.toolCalls.length === 0) return step;
    report.unsupported["tool calls (no tool-call format)"] =
      (report.unsupported["tool calls (no tool-call format)"] ?? 0) + 1;
    const results = step.observations.map((observation) => observation.content).join("\n\n");
    return {
      ...step,
      content: step.content === "" ? "ok" : step.content,
      toolCalls: [],
      observations: step.observations.length === 0 ? [] : [{ role: "user" as const, content: results }],
    };
  });
  return { ...conversation, steps };
}
