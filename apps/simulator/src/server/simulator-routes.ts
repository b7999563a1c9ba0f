import type { IncomingMessage, ServerResponse } from "node:http";
import type { SimulatedModel } from "../engine/simulated-model";
import { createChatCompletionsProtocol } from "./chat-completions-protocol";
import type { FaultInjector } from "./fault-injector";
import { createGenerationHandler } from "./generation-handler";
import { renderPrometheusMetrics } from "./prometheus-metrics";
import { nemoGenerateProtocol, sglangGenerateProtocol, vllmCompletionsProtocol } from "./protocols";
import { HttpError, readJson, sendJson } from "./simulator-http";

/**
 * The simulator's routes: `GET /health`, `/metrics`, `/v1/models`; `POST /v1/completions`
 * (vLLM), `/generate` (SGLang with `input_ids`, else NeMo-RL), `/v1/chat/completions`.
 */
export function createSimulatorRoutes(
  model: SimulatedModel,
  modelName: string,
  faults: FaultInjector,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const generate = createGenerationHandler(model, modelName, faults);
  const chatProtocol = createChatCompletionsProtocol(model.family);
  return async (req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/health") {
      res.writeHead(faults.isUnhealthy ? 503 : 200).end();
      return;
    }
    if (req.method === "GET" && path === "/metrics") {
      res
        .writeHead(200, { "content-type": "text/plain; version=0.0.4" })
        .end(renderMetrics(model, modelName));
      return;
    }
    if (req.method === "GET" && path === "/v1/models") {
      sendJson(res, 200, {
        object: "list",
        data: [{ id: modelName, object: "model", owned_by: "raas-simulator" }],
      });
      return;
    }
    if (req.method === "POST" && (path === "/v1/completions" || path === "/generate")) {
      const body = await readJson(req);
      const protocol =
        path === "/v1/completions"
          ? vllmCompletionsProtocol
          : typeof body === "object" && body !== null && "input_ids" in body
            ? sglangGenerateProtocol
            : nemoGenerateProtocol;
      await generate(protocol, body, req, res);
      return;
    }
    if (req.method === "POST" && path === "/v1/chat/completions") {
      await generate(chatProtocol, await readJson(req), req, res);
      return;
    }
    throw new HttpError(404, `no route ${req.method} ${path}`);
  };
}

function renderMetrics(model: SimulatedModel, modelName: string): string {
  return renderPrometheusMetrics(
    model.counters,
    {
      running: model.slots.runningCount,
      waiting: model.slots.waitingCount,
      cacheBlocks: model.cache.size,
      cacheCapacityBlocks: model.cache.capacityBlocks,
    },
    modelName,
    {
      ...model.slots.occupancy(),
      maxNumSeqs: model.slots.maxConcurrency,
      decodeCapacityTokensPerSec: model.decodeCapacityTokensPerSec,
    },
  );
}
