"use client";

import { useSyncExternalStore } from "react";
import { readToken, subscribeToken } from "./token-store";

/** The bearer token entered in the UI, or null. Always null during server rendering. */
export function useToken(): string | null {
  return useSyncExternalStore(subscribeToken, readToken, () => null);
}
