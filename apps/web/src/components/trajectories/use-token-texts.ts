"use client";

import { useQueries } from "@tanstack/react-query";
import { useTRPC } from "../../trpc/trpc-context";
import { decodeChunks, type TTokenText } from "./token-text";

export interface TTokenTexts {
  /** Each decoded id's text; ids still loading (or whose call failed) are missing. */
  byId: ReadonlyMap<number, TTokenText>;
  isLoading: boolean;
  /** The first failed call's message, or null. */
  error: string | null;
}

/**
 * The text of each of `ids` from the server's `tokens.decode` (the model family's tokenizer), in
 * calls of at most the server's cap. A token's text never changes, so answers are kept for the page's life.
 */
export function useTokenTexts(ids: readonly number[], isEnabled: boolean): TTokenTexts {
  const trpc = useTRPC();
  return useQueries({
    queries: (isEnabled ? decodeChunks(ids) : []).map((chunk) =>
      trpc.tokens.decode.queryOptions({ ids: chunk }, { staleTime: Number.POSITIVE_INFINITY, retry: false }),
    ),
    combine: (results) => {
      const byId = new Map<number, TTokenText>();
      for (const result of results) {
        for (const token of result.data?.tokens ?? [])
          byId.set(token.id, { text: token.text, isPartial: token.isPartial });
      }
      const failed = results.find((result) => result.error);
      return {
        byId,
        isLoading: results.some((result) => result.isPending),
        error: failed?.error ? failed.error.message : null,
      };
    },
  });
}
