import type { TAnthropicMessage } from "@raas/shared";
import type { AnswerDelta } from "./answer-stream";
import { anthropicMessageId, thinkingSignature } from "./anthropic-answer";
import type { GatewayEvent } from "./face-options";

type OpenBlock = { kind: "thinking" | "text"; index: number } | null;

/**
 * Anthropic's streaming events for one answer, built as the gateway's deltas arrive: `message_start`
 * (input tokens known, content empty), a thinking block with `thinking_delta`s (closed with its
 * `signature_delta`), a text block with `text_delta`s, then at the end each tool_use block whole
 * (one `input_json_delta`: arguments are JSON only once closed), `message_delta` with the stop
 * reason and output tokens, `message_stop`. Block indexes match the final message's `content`.
 * Pure: returns the events, writes nothing.
 */
export class AnthropicEventStream {
  private open: OpenBlock = null;
  private nextIndex = 0;
  private callId = "";

  start(head: { callId: string; model: string; promptTokens: number }): GatewayEvent[] {
    this.callId = head.callId;
    return [
      event("message_start", {
        message: {
          id: anthropicMessageId(head.callId),
          type: "message",
          role: "assistant",
          model: head.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: head.promptTokens, output_tokens: 0 },
        },
      }),
    ];
  }

  delta(delta: AnswerDelta): GatewayEvent[] {
    const events: GatewayEvent[] = [];
    if (delta.reasoning_content) {
      events.push(...this.openBlock("thinking"));
      events.push(
        event("content_block_delta", {
          index: this.open?.index,
          delta: { type: "thinking_delta", thinking: delta.reasoning_content },
        }),
      );
    }
    if (delta.content) {
      events.push(...this.openBlock("text"));
      events.push(
        event("content_block_delta", {
          index: this.open?.index,
          delta: { type: "text_delta", text: delta.content },
        }),
      );
    }
    return events;
  }

  /** The tool_use blocks, the stop reason and the end, from the finished message. */
  finish(message: TAnthropicMessage): GatewayEvent[] {
    const events = this.closeBlock();
    for (const block of message.content) {
      if (block.type !== "tool_use") continue;
      const index = this.nextIndex++;
      events.push(
        event("content_block_start", {
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
        }),
        event("content_block_delta", {
          index,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
        }),
        event("content_block_stop", { index }),
      );
    }
    events.push(
      event("message_delta", {
        delta: { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence },
        usage: { output_tokens: message.usage.output_tokens },
      }),
      event("message_stop", {}),
    );
    return events;
  }

  private openBlock(kind: "thinking" | "text"): GatewayEvent[] {
    if (this.open?.kind === kind) return [];
    const events = this.closeBlock();
    const index = this.nextIndex++;
    this.open = { kind, index };
    const block =
      kind === "thinking" ? { type: "thinking", thinking: "", signature: "" } : { type: "text", text: "" };
    events.push(event("content_block_start", { index, content_block: block }));
    return events;
  }

  private closeBlock(): GatewayEvent[] {
    const { open } = this;
    if (!open) return [];
    this.open = null;
    const events: GatewayEvent[] = [];
    if (open.kind === "thinking") {
      events.push(
        event("content_block_delta", {
          index: open.index,
          delta: { type: "signature_delta", signature: thinkingSignature(this.callId) },
        }),
      );
    }
    events.push(event("content_block_stop", { index: open.index }));
    return events;
  }
}

function event(name: string, fields: Record<string, unknown>): GatewayEvent {
  return { event: name, data: { type: name, ...fields } };
}
