"use client";

import { Badge } from "@raas/ui/badge";
import { DataTable, type TDataColumn } from "@raas/ui/data-table";
import { FactList } from "@raas/ui/fact-list";
import { Section } from "@raas/ui/section";
import { StateMessage } from "@raas/ui/state-message";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../trpc/trpc-context";
import { ErrorState } from "../error-state";
import {
  breakRows,
  certificateFacts,
  chainRows,
  chainTokenStream,
  type TBreakRow,
  type TChainRow,
} from "./gateway-trace-rows";
import { TokenLegend, TokenView } from "./token-view";
import styles from "./trajectory.module.css";

const BREAK_COLUMNS: ReadonlyArray<TDataColumn<TBreakRow>> = [
  { key: "call", header: "Call", cell: (row) => row.callSeq, isNumeric: true },
  { key: "chains", header: "Chain → new chain", cell: (row) => row.chains },
  {
    key: "position",
    header: "Token position",
    cell: (row) => row.position,
    isNumeric: true,
    cellTestId: () => "break-position",
  },
  { key: "region", header: "Region", cell: (row) => row.region, cellTestId: () => "break-region" },
  {
    key: "expected",
    header: "Expected id",
    cell: (row) => row.expectedId,
    isNumeric: true,
    cellTestId: () => "break-expected",
  },
  {
    key: "actual",
    header: "Actual id",
    cell: (row) => row.actualId,
    isNumeric: true,
    cellTestId: () => "break-actual",
  },
  { key: "message", header: "What happened", cell: (row) => row.message },
];

const CHAIN_COLUMNS: ReadonlyArray<TDataColumn<TChainRow>> = [
  { key: "index", header: "Chain", cell: (row) => row.index, isNumeric: true },
  { key: "origin", header: "Began as", cell: (row) => row.origin },
  { key: "calls", header: "Calls", cell: (row) => row.calls, isNumeric: true },
  { key: "tokens", header: "Tokens", cell: (row) => row.tokens, isNumeric: true },
  { key: "sampled", header: "Sampled (mask 1)", cell: (row) => row.sampled, isNumeric: true },
  { key: "end", header: "Ended", cell: (row) => row.end },
];

/**
 * The token-exactness certificate of a harness job's gateway calls: whether every chain is exact,
 * the chains and calls merged, each break with its token position, region and the expected vs
 * actual id, and each chain's stream in the token view (sampled ids coloured, the rest masked).
 */
export function GatewayCertificatePanel({ jobId, isRunning }: { jobId: string; isRunning: boolean }) {
  const trpc = useTRPC();
  const traces = useQuery(
    trpc.jobs.gatewayTraces.queryOptions({ jobId }, { refetchInterval: isRunning ? 2_000 : false }),
  );
  const certificate = traces.data?.certificate;
  return (
    <Section
      id="gateway-certificate"
      title="Gateway traces and certificate"
      description="The harness's model calls through the inference gateway, chained by token prefix. Certified means every chain is exactly what the model saw and sampled; a call that changed earlier history breaks its chain at the first differing token, and the chain is split there, never stitched."
      actions={
        certificate ? (
          <Badge tone={certificate.isCertified ? "ok" : "bad"} testId="certificate-badge">
            {certificate.isCertified ? "certified" : "not certified"}
          </Badge>
        ) : undefined
      }
      testId="gateway-certificate"
    >
      {traces.isPending ? <StateMessage kind="loading" title="Loading the gateway traces…" /> : null}
      {traces.error ? <ErrorState what="the gateway traces" error={traces.error} /> : null}
      {traces.data && certificate ? (
        <>
          <FactList facts={certificateFacts(certificate)} testId="certificate-facts" />
          {certificate.breaks.length > 0 ? (
            <h3 className={styles.certificatePart}>Where chains broke</h3>
          ) : null}
          {certificate.breaks.length > 0 ? (
            <DataTable
              caption="Where chains broke"
              columns={BREAK_COLUMNS}
              rows={breakRows(certificate.breaks)}
              rowKey={(row) => row.key}
              rowTestId={() => "certificate-break"}
              testId="certificate-breaks-table"
            />
          ) : null}
          {traces.data.chains.length > 0 ? (
            <>
              <h3 className={styles.certificatePart}>Chains</h3>
              <DataTable
                caption="Chains"
                columns={CHAIN_COLUMNS}
                rows={chainRows(traces.data)}
                rowKey={(row) => String(row.index)}
                rowTestId={() => "certificate-chain"}
                testId="certificate-chains-table"
              />
              <TokenLegend />
              {traces.data.chains.map((chain) => {
                const { stream, blocks } = chainTokenStream(chain);
                return (
                  <details key={chain.index} className={styles.chain} open={traces.data.chains.length === 1}>
                    <summary>
                      Chain {chain.index}: {chain.tokens.length} tokens, {chain.callIds.length} calls
                    </summary>
                    <TokenView
                      exported={stream}
                      blocks={blocks}
                      label={`Chain ${chain.index} tokens`}
                      testId={`chain-tokens-${chain.index}`}
                    />
                  </details>
                );
              })}
            </>
          ) : (
            <StateMessage kind="empty" title="No model calls through the gateway yet." />
          )}
        </>
      ) : null}
    </Section>
  );
}
