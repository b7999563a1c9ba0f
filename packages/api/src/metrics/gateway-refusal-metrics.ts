import { Counter, type Registry } from "prom-client";

/** Connections and requests the gateway's guards refused, by guard, as counted so far. */
export interface GatewayRefusalCounts {
  /** Chat requests past a session's in-flight cap (429). */
  sessionInflight: number;
  /** Sandbox connections past a bridge's connection cap (closed on accept). */
  bridgeConnections: number;
  /** Requests a sandbox sent too slowly through its bridge (408, closed). */
  bridgeRequestTimeouts: number;
}

const REASONS: Record<keyof GatewayRefusalCounts, string> = {
  sessionInflight: "session_inflight",
  bridgeConnections: "bridge_connections",
  bridgeRequestTimeouts: "bridge_request_timeout",
};

/**
 * `raas_gateway_refusals_total{reason}`: what the gateway's guards turned away, read at scrape
 * time from their own counters. A rising `bridge_*` series is a sandbox flooding its bridge.
 */
export function registerGatewayRefusalMetrics(registry: Registry, counts: () => GatewayRefusalCounts): void {
  new Counter<"reason">({
    name: "raas_gateway_refusals_total",
    help: "Gateway connections and requests refused by a guard: session_inflight (429 past a session's open-request cap), bridge_connections (a sandbox's connection past its bridge's cap, closed on accept), bridge_request_timeout (a request sent too slowly, 408).",
    labelNames: ["reason"] as const,
    registers: [registry],
    collect() {
      this.reset();
      const now = counts();
      for (const [key, reason] of Object.entries(REASONS) as Array<[keyof GatewayRefusalCounts, string]>) {
        this.inc({ reason }, now[key]);
      }
    },
  });
}
