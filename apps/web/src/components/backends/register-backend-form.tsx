"use client";

import { Section } from "@raas/ui/section";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { describeError } from "../../lib/describe-error";
import { useTRPC } from "../../trpc/trpc-context";
import { WRITE_REASON_ID } from "./backend-actions";
import styles from "./backends.module.css";

const KINDS = ["vllm", "sglang", "nemo-rl"] as const;
type TKind = (typeof KINDS)[number];

/** Adds a backend at run time (or updates a known id); the server checks the input and says what is wrong. */
export function RegisterBackendForm({ blockReason }: { blockReason: string | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [baseUrl, setBaseUrl] = useState("");
  const [id, setId] = useState("");
  const [kind, setKind] = useState<TKind>("vllm");
  const [weightVersion, setWeightVersion] = useState("");
  const register = useMutation(
    trpc.backends.register.mutationOptions({
      onSuccess: () => {
        setBaseUrl("");
        setId("");
        setWeightVersion("");
      },
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.backends.list.queryKey() }),
    }),
  );
  const isDisabled = blockReason !== null || register.isPending || baseUrl.trim() === "";

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    register.mutate({
      baseUrl: baseUrl.trim(),
      kind,
      ...(id.trim() ? { id: id.trim() } : {}),
      ...(weightVersion.trim() ? { weightVersion: weightVersion.trim() } : {}),
    });
  };

  return (
    <Section
      id="register-backend"
      title="Register a backend"
      description="New jobs may go to it at once. Registering a known id updates it. Backends registered here reach this server only, not separately started workers (they read RAAS_BACKENDS)."
    >
      <form className={styles.form} onSubmit={submit} aria-label="Register a backend">
        <label className={`${styles.field} ${styles.wide}`}>
          <span>base URL</span>
          <input
            name="baseUrl"
            placeholder="http://gpu-3:8000"
            value={baseUrl}
            onChange={(event) => setBaseUrl(event.target.value)}
          />
        </label>
        <label className={styles.field}>
          <span>id (default host:port)</span>
          <input name="id" value={id} onChange={(event) => setId(event.target.value)} />
        </label>
        <label className={styles.field}>
          <span>kind</span>
          <select name="kind" value={kind} onChange={(event) => setKind(event.target.value as TKind)}>
            {KINDS.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.field}>
          <span>weight version</span>
          <input
            name="weightVersion"
            placeholder="step-120"
            value={weightVersion}
            onChange={(event) => setWeightVersion(event.target.value)}
          />
        </label>
        <button
          type="submit"
          disabled={isDisabled}
          aria-describedby={blockReason ? WRITE_REASON_ID : undefined}
        >
          {register.isPending ? "Registering…" : "Register"}
        </button>
      </form>
      {register.isError ? (
        <p role="alert" className={`${styles.result} ${styles.error}`}>
          Not registered: {describeError(register.error).title}
        </p>
      ) : null}
      {register.data ? (
        <p role="status" className={styles.result}>
          {register.data.created ? "Registered" : "Updated"} {register.data.backend.id}.
        </p>
      ) : null}
    </Section>
  );
}
