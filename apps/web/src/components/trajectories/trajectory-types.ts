import type { AppRouter } from "@raas/api";
import type { inferRouterOutputs } from "@trpc/server";

type RouterOutputs = inferRouterOutputs<AppRouter>;

/** One job's training export (flat tokens, loss mask, logprobs, turn spans) as the browser receives it. */
export type TExportView = RouterOutputs["jobs"]["export"];

/**
 * What the token view draws: a flat stream with its loss mask and logprobs, and the turns (or
 * gateway calls) whose weight versions it reads out. A trajectory export is one, with the integer
 * weight version per token and, when the job asked for them, the top-k alternatives; a gateway
 * chain is shaped into one without those.
 */
export type TTokenStreamView = Pick<TExportView, "tokens" | "lossMask" | "logprobs"> &
  Partial<Pick<TExportView, "versions" | "topLogprobs">> & {
    turns: ReadonlyArray<
      Pick<TExportView["turns"][number], "index" | "weightVersion" | "weightVersionSpans">
    >;
  };

/** One alternative at a sampled position (the backend's top-k). */
export type TAlternativeView = NonNullable<NonNullable<TExportView["topLogprobs"]>[number]>[number];

/** One gateway call in the harness's API shape, as the browser receives it. */
export type TGatewayCallItem = RouterOutputs["jobs"]["gatewayCalls"]["calls"][number];
