"use client";

import { FactList } from "@raas/ui/fact-list";
import { Section } from "@raas/ui/section";
import { StateMessage } from "@raas/ui/state-message";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../trpc/trpc-context";
import { ErrorState } from "../error-state";
import { answerSummary, apiLabel, callLine, callsFacts, harnessLabel, jsonBlock } from "./gateway-call-rows";
import styles from "./trajectory.module.css";

/** Calls shown at first, and added by each "show more". */
const PAGE_CALLS = 50;

/**
 * A harness job's model calls as the harness made them: which harness ran, the API shape and the
 * client it named, and each call's request (from its last assistant turn on) and answer in that
 * shape — Anthropic's message, the Responses object or the chat message.
 */
export function GatewayCallsPanel({
  jobId,
  payload,
  isRunning,
}: {
  jobId: string;
  payload: Record<string, unknown> | undefined;
  isRunning: boolean;
}) {
  const trpc = useTRPC();
  const [limit, setLimit] = useState(PAGE_CALLS);
  const page = useQuery(
    trpc.jobs.gatewayCalls.queryOptions({ jobId, limit }, { refetchInterval: isRunning ? 2_000 : false }),
  );
  const calls = page.data?.calls ?? [];
  const facts = callsFacts(calls);
  return (
    <Section
      id="gateway-calls"
      title={`Model calls (${page.data?.total ?? "…"})`}
      description="Each call the harness made through the job's gateway, in the API shape it spoke: what it sent after its last assistant turn (the system prompt and tools are in the first call's prompt) and the answer it got."
      testId="gateway-calls"
    >
      <FactList
        testId="gateway-calls-facts"
        facts={[
          { label: "Harness", value: harnessLabel(payload), testId: "calls-harness" },
          { label: "API shape", value: facts.api, testId: "calls-api" },
          { label: "Client (User-Agent)", value: facts.client, testId: "calls-client" },
        ]}
      />
      {page.isPending ? <StateMessage kind="loading" title="Loading the gateway's calls…" /> : null}
      {page.error ? <ErrorState what="the gateway's calls" error={page.error} /> : null}
      {page.data && calls.length === 0 ? (
        <StateMessage kind="empty" title="No model calls yet">
          The harness has not called the gateway.
        </StateMessage>
      ) : null}
      {calls.map((call) => (
        <details key={call.id} className={styles.chain} data-testid="gateway-call">
          <summary>
            Call {call.seq} · {apiLabel(call.api)} ·{" "}
            <span data-testid="gateway-call-answer">{answerSummary(call)}</span>
          </summary>
          <p className={styles.meta}>{callLine(call)}</p>
          <h4 className={styles.certificatePart}>Sent</h4>
          <pre className={styles.text} data-testid="gateway-call-sent">
            {jsonBlock(call.sent)}
          </pre>
          <h4 className={styles.certificatePart}>Answered</h4>
          <pre className={styles.text} data-testid="gateway-call-answered">
            {jsonBlock(call.answered)}
          </pre>
        </details>
      ))}
      {page.data?.nextAfterSeq != null ? (
        <button
          type="button"
          onClick={() => setLimit((shown) => shown + PAGE_CALLS)}
          data-testid="gateway-calls-more"
        >
          Show {PAGE_CALLS} more of {page.data.total}
        </button>
      ) : null}
    </Section>
  );
}
