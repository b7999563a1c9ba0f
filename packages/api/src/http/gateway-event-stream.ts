import type { ServerResponse } from "node:http";
import type { GatewayEvent } from "../gateway.port";

/**
 * Named server-sent events (`event: <name>` + `data: <json>`), as Anthropic's Messages API and
 * OpenAI's Responses API stream: the response's head is written with the first event, so a
 * failure before it is still answered as the request's own error.
 */
export class GatewayEventStream {
  private isStarted = false;

  constructor(private readonly res: ServerResponse) {}

  get isOpen(): boolean {
    return this.isStarted;
  }

  send(event: GatewayEvent): void {
    if (!this.isStarted) {
      this.isStarted = true;
      this.res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        connection: "keep-alive",
      });
    }
    if (!this.res.writableEnded)
      this.res.write(`event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`);
  }

  end(): void {
    if (!this.res.writableEnded) this.res.end();
  }

  /** A failure after the stream opened: `event` (the shape's error event), then the end. */
  fail(event: GatewayEvent): void {
    if (this.res.writableEnded) return;
    this.send(event);
    this.res.end();
  }
}
