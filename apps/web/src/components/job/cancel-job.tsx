"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { describeError } from "../../lib/describe-error";
import { isTerminalStatus } from "../../lib/domain";
import { useTokenAccess } from "../../token/use-token-access";
import type { TJobView } from "../../trpc/router-types";
import { useTRPC } from "../../trpc/trpc-context";
import { cancelBlockReason } from "./cancel-block-reason";

/** Cancel button; enabled only with the admin token, otherwise disabled with the reason beside it. */
export function CancelJob({ job }: { job: TJobView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const access = useTokenAccess();
  const cancel = useMutation(
    trpc.jobs.cancel.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.jobs.get.queryKey({ id: job.id }) }),
    }),
  );
  const reason = cancelBlockReason(access, isTerminalStatus(job.status) ? job.status : null);
  const isDisabled = reason !== null || cancel.isPending;

  return (
    <div className="cancel-job">
      <button
        type="button"
        className="danger"
        disabled={isDisabled}
        aria-describedby="cancel-reason"
        onClick={() => cancel.mutate({ jobId: job.id })}
      >
        {cancel.isPending ? "Cancelling…" : "Cancel job"}
      </button>
      <p id="cancel-reason" className="muted" data-testid="cancel-reason">
        {reason ?? (cancel.isError ? `Cancel failed: ${describeError(cancel.error).title}` : "")}
      </p>
    </div>
  );
}
