import type { TResponsesOutputItem, TResponsesResponse } from "@raas/shared";
import type { AnswerDelta } from "./answer-stream";
import type { GatewayEvent } from "./face-options";
import { outputItemIds } from "./responses-answer";

type OpenItem = { kind: "reasoning" | "message"; id: string; index: number; text: string } | null;

/**
 * OpenAI's Responses streaming events for one answer, built as the gateway's deltas arrive:
 * `response.created` and `response.in_progress`; a reasoning item with its reasoning_text part and
 * `response.reasoning_text.delta`s;
 * a message item with its output_text part and `response.output_text.delta`s; at the end each
 * function_call item whole (one `response.function_call_arguments.delta`: arguments are JSON only
 * once closed); then `response.completed` (or `response.incomplete` when cut at the token limit)
 * with the whole response. Every event carries its `sequence_number`; item ids and output indexes
 * match the final response's. Pure: returns the events, writes nothing.
 */
export class ResponsesEventStream {
  private open: OpenItem = null;
  private nextOutputIndex = 0;
  private sequence = 0;
  private ids = outputItemIds("");

  start(response: TResponsesResponse, callId: string): GatewayEvent[] {
    this.ids = outputItemIds(callId);
    return [this.event("response.created", { response }), this.event("response.in_progress", { response })];
  }

  delta(delta: AnswerDelta): GatewayEvent[] {
    const events: GatewayEvent[] = [];
    if (delta.reasoning_content) {
      const open = this.openItem("reasoning", events);
      open.text += delta.reasoning_content;
      events.push(
        this.event("response.reasoning_text.delta", {
          item_id: open.id,
          output_index: open.index,
          content_index: 0,
          delta: delta.reasoning_content,
        }),
      );
    }
    if (delta.content) {
      const open = this.openItem("message", events);
      open.text += delta.content;
      events.push(
        this.event("response.output_text.delta", {
          item_id: open.id,
          output_index: open.index,
          content_index: 0,
          delta: delta.content,
          logprobs: [],
        }),
      );
    }
    return events;
  }

  /** The function calls and the end, from the finished response. */
  finish(response: TResponsesResponse): GatewayEvent[] {
    const events = this.closeItem();
    for (const item of response.output) {
      if (item.type !== "function_call") continue;
      const index = this.nextOutputIndex++;
      events.push(
        this.event("response.output_item.added", {
          output_index: index,
          item: { ...item, status: "in_progress", arguments: "" },
        }),
        this.event("response.function_call_arguments.delta", {
          item_id: item.id,
          output_index: index,
          delta: item.arguments,
        }),
        this.event("response.function_call_arguments.done", {
          item_id: item.id,
          output_index: index,
          arguments: item.arguments,
        }),
        this.event("response.output_item.done", { output_index: index, item }),
      );
    }
    const name = response.status === "incomplete" ? "response.incomplete" : "response.completed";
    events.push(this.event(name, { response }));
    return events;
  }

  private openItem(kind: "reasoning" | "message", events: GatewayEvent[]): NonNullable<OpenItem> {
    if (this.open?.kind === kind) return this.open;
    events.push(...this.closeItem());
    const open = {
      kind,
      id: kind === "reasoning" ? this.ids.reasoning : this.ids.message,
      index: this.nextOutputIndex++,
      text: "",
    };
    this.open = open;
    const where = { output_index: open.index };
    if (kind === "reasoning") {
      events.push(
        this.event("response.output_item.added", {
          ...where,
          item: { id: open.id, type: "reasoning", summary: [], content: [] },
        }),
        // Clients accumulate the deltas into this part (OpenAI's SDK refuses a delta without it).
        this.event("response.content_part.added", {
          item_id: open.id,
          ...where,
          content_index: 0,
          part: { type: "reasoning_text", text: "" },
        }),
      );
    } else {
      events.push(
        this.event("response.output_item.added", {
          ...where,
          item: { id: open.id, type: "message", status: "in_progress", role: "assistant", content: [] },
        }),
        this.event("response.content_part.added", {
          item_id: open.id,
          ...where,
          content_index: 0,
          part: { type: "output_text", text: "", annotations: [] },
        }),
      );
    }
    return open;
  }

  private closeItem(): GatewayEvent[] {
    const { open } = this;
    if (!open) return [];
    this.open = null;
    const where = { item_id: open.id, output_index: open.index, content_index: 0 };
    let item: TResponsesOutputItem;
    if (open.kind === "reasoning") {
      item = {
        id: open.id,
        type: "reasoning",
        summary: [],
        content: [{ type: "reasoning_text", text: open.text }],
      };
      return [
        this.event("response.reasoning_text.done", { ...where, text: open.text }),
        this.event("response.content_part.done", {
          ...where,
          part: { type: "reasoning_text", text: open.text },
        }),
        this.event("response.output_item.done", { output_index: open.index, item }),
      ];
    }
    const part = { type: "output_text" as const, text: open.text, annotations: [] };
    item = { id: open.id, type: "message", status: "completed", role: "assistant", content: [part] };
    return [
      this.event("response.output_text.done", { ...where, text: open.text, logprobs: [] }),
      this.event("response.content_part.done", { ...where, part }),
      this.event("response.output_item.done", { output_index: open.index, item }),
    ];
  }

  private event(name: string, fields: Record<string, unknown>): GatewayEvent {
    return { event: name, data: { type: name, sequence_number: this.sequence++, ...fields } };
  }
}
