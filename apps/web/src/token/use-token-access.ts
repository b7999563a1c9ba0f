"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPCClient } from "../trpc/trpc-context";
import { probeTokenAccess, type TTokenAccess } from "./probe-token-role";
import { useToken } from "./use-token";

/** The access the entered token grants; `checking` while the probe runs. */
export function useTokenAccess(): TTokenAccess | { kind: "checking" } {
  const token = useToken();
  const client = useTRPCClient();
  const probe = useQuery({
    queryKey: ["raas", "token-access", token],
    queryFn: () => probeTokenAccess(client),
    enabled: token !== null,
    staleTime: 60_000,
    retry: false,
  });
  if (token === null) return { kind: "none" };
  return probe.data ?? { kind: "checking" };
}
