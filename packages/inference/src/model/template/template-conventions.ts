import type { ModelFamilyProbe } from "../../chat-template/model-family-probe";
import type { ChatMessage, ToolCall, ToolSpec } from "../model-family.types";
import type { TemplateRender } from "./template-continuation";
import type { ToolCallShape } from "./template-messages";

const USER = "RaaS convention probe: the user asks.";
const ANSWER = "RaaS convention probe: the assistant answers.";
const ARGUMENT_VALUE = "RaaS-convention-value";

function tryRender(render: TemplateRender, messages: unknown[]): string | undefined {
  try {
    return render({ messages: messages as never, addGenerationPrompt: false });
  } catch {
    return undefined;
  }
}

/**
 * The special token the template writes right after an assistant's answer (`<|im_end|>`,
 * `<|eot_id|>`, `<｜end▁of▁sentence｜>`, …): the token a sampled turn ends with. Undefined when
 * the answer is followed by no special token the config or the tokenizer's added tokens declare.
 */
export function findEndOfTurn(
  render: TemplateRender,
  probe: ModelFamilyProbe,
  addedTokens: readonly string[] = [],
): string | undefined {
  const text = tryRender(render, [
    { role: "user", content: USER },
    { role: "assistant", content: ANSWER },
  ]);
  const at = text?.indexOf(ANSWER) ?? -1;
  if (text === undefined || at === -1) return undefined;
  const after = text.slice(at + ANSWER.length).trimStart();
  const candidates = [...probe.specialTokens.emitted, probe.specialTokens.eos, ...addedTokens]
    .filter((token): token is string => token !== undefined)
    .sort((a, b) => b.length - a.length);
  return candidates.find((token) => after.startsWith(token));
}

/**
 * How the template reads an assistant's tool calls: arguments as an object (Qwen3, Llama) or as
 * JSON text (DeepSeek V3), content empty or none. The first shape whose render shows the argument.
 */
export function findToolCallShape(render: TemplateRender): ToolCallShape {
  for (const contentNoneWithCalls of [false, true]) {
    for (const argumentsAsText of [false, true]) {
      const args = { city: ARGUMENT_VALUE };
      const text = tryRender(render, [
        { role: "user", content: USER },
        {
          role: "assistant",
          content: contentNoneWithCalls ? null : "",
          tool_calls: [
            {
              type: "function",
              function: { name: "probe_tool", arguments: argumentsAsText ? JSON.stringify(args) : args },
            },
          ],
        },
      ]);
      if (text?.includes(ARGUMENT_VALUE) && !text.includes("[object Object]")) {
        return { argumentsAsText, contentNoneWithCalls };
      }
    }
  }
  return { argumentsAsText: false, contentNoneWithCalls: false };
}

/**
 * For templates that ignore `tools` (DeepSeek V3's): the tools as JSON schemas in the system
 * prompt, with one call written the way the template renders tool calls, so the model sees the
 * format it was trained on rather than one we made up.
 */
export function listToolsInSystemPrompt(
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[],
  renderCall: (parts: { content: string; toolCalls: ToolCall[] }) => string,
): ChatMessage[] {
  const schemas = tools.map((tool) =>
    JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters }),
  );
  let example = "";
  try {
    const call = { name: tools[0]?.name ?? "tool", arguments: { argument: "value" } };
    example = `\n\nTo call a tool, write the call exactly like this:\n${renderCall({ content: "", toolCalls: [call] })}`;
  } catch {
    // No rendered example: the schemas alone.
  }
  const listing = `You can call these tools:\n${schemas.join("\n")}${example}`;
  const [first, ...rest] = messages;
  if (first?.role === "system")
    return [{ role: "system", content: `${first.content}\n\n${listing}` }, ...rest];
  return [{ role: "system", content: listing }, ...messages];
}
