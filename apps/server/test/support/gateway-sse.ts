// Reads the gateway's named server-sent events back into the answer a client would assemble
// from them (as Anthropic's and OpenAI's SDKs do), so tests continue a conversation from a stream.

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
type Json = any;

/** The `data:` of each named event, in order. */
function readEvents(text: string): { event: string; data: Json }[] {
  return text
    .split("\n\n")
    .filter((block) => block.startsWith("event: "))
    .map((block) => {
      const [head, data] = block.split("\n");
      return {
        event: (head as string).slice("event: ".length),
        data: JSON.parse((data as string).slice("data: ".length)),
      };
    });
}

/** Anthropic's message from its stream: message_start, the blocks' deltas, message_delta. */
export function readAnthropicStream(text: string): Json {
  let message: Json = null;
  for (const { event, data } of readEvents(text)) {
    if (data.type !== event) throw new Error(`event ${event} carries type ${data.type}`);
    switch (event) {
      case "message_start":
        message = structuredClone(data.message);
        break;
      case "content_block_start":
        message.content[data.index] = structuredClone(data.content_block);
        break;
      case "content_block_delta": {
        const block = message.content[data.index];
        const { delta } = data;
        if (delta.type === "text_delta") block.text += delta.text;
        else if (delta.type === "thinking_delta") block.thinking += delta.thinking;
        else if (delta.type === "signature_delta") block.signature = delta.signature;
        else if (delta.type === "input_json_delta")
          block.partial = (block.partial ?? "") + delta.partial_json;
        break;
      }
      case "content_block_stop": {
        const block = message.content[data.index];
        if (block.type === "tool_use") {
          block.input = JSON.parse(block.partial || "{}");
          delete block.partial;
        }
        break;
      }
      case "message_delta":
        Object.assign(message, data.delta);
        message.usage.output_tokens = data.usage.output_tokens;
        break;
      case "error":
        throw new Error(`stream failed: ${JSON.stringify(data)}`);
    }
  }
  return message;
}

/** The event types of a Responses stream, and the response its last event carries. */
export function readResponsesStream(text: string): { types: string[]; response: Json } {
  const events = readEvents(text);
  events.forEach(({ event, data }, i) => {
    if (data.type !== event || data.sequence_number !== i)
      throw new Error(`event ${i} is out of order: ${event}`);
  });
  return { types: events.map((event) => event.event), response: events.at(-1)?.data.response };
}
