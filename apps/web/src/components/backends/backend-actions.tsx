"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { describeError } from "../../lib/describe-error";
import type { TBackendView } from "../../trpc/router-types";
import { useTRPC } from "../../trpc/trpc-context";
import styles from "./backends.module.css";

/** The id of the note that says why the write buttons are disabled (their `aria-describedby`). */
export const WRITE_REASON_ID = "backend-write-reason";

/**
 * Drain or resume, and remove (asks once more before it forgets the backend). `blockReason`
 * non-null disables every button; the note with that reason sits above the table.
 */
export function BackendActions({
  backend,
  blockReason,
}: {
  backend: TBackendView;
  blockReason: string | null;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [isConfirmingRemove, setConfirmingRemove] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.backends.list.queryKey() });
  const drain = useMutation(trpc.backends.drain.mutationOptions({ onSettled: refresh }));
  const resume = useMutation(trpc.backends.resume.mutationOptions({ onSettled: refresh }));
  const remove = useMutation(trpc.backends.remove.mutationOptions({ onSettled: refresh }));
  const isBusy = drain.isPending || resume.isPending || remove.isPending;
  const isDisabled = blockReason !== null || isBusy;
  const failed = [drain, resume, remove].find((mutation) => mutation.isError);
  const describedBy = blockReason ? WRITE_REASON_ID : undefined;

  return (
    <div className={styles.actions}>
      {backend.lifecycle === "active" ? (
        <button
          type="button"
          disabled={isDisabled}
          aria-describedby={describedBy}
          aria-label={`Drain ${backend.id}`}
          onClick={() => drain.mutate({ id: backend.id })}
        >
          Drain
        </button>
      ) : (
        <button
          type="button"
          disabled={isDisabled}
          aria-describedby={describedBy}
          aria-label={`Resume ${backend.id}`}
          onClick={() => resume.mutate({ id: backend.id })}
        >
          Resume
        </button>
      )}
      {isConfirmingRemove ? (
        <>
          <button
            type="button"
            className="danger"
            disabled={isDisabled}
            aria-label={`Confirm removing ${backend.id}`}
            onClick={() => remove.mutate({ id: backend.id })}
          >
            Confirm remove
          </button>
          <button type="button" className="link-button" onClick={() => setConfirmingRemove(false)}>
            Keep
          </button>
        </>
      ) : (
        <button
          type="button"
          className="danger"
          disabled={isDisabled}
          aria-describedby={describedBy}
          aria-label={`Remove ${backend.id}`}
          onClick={() => setConfirmingRemove(true)}
        >
          Remove
        </button>
      )}
      {failed?.error ? (
        <span role="alert" className={styles.error}>
          {describeError(failed.error).title}
        </span>
      ) : null}
    </div>
  );
}
