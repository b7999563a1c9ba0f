import { requestFailure } from "@raas/shared";
import { z } from "zod";
import type { ControlPlaneContext } from "../../context";
import type { TokenTextDecoder } from "../../tokens.port";
import { viewerProcedure } from "../../trpc";
import { MAX_DECODE_IDS, tokenPieces } from "./token-pieces";

const ZDecodeTokensRequest = z
  .object({
    ids: z
      .array(z.number().int().min(0).max(10_000_000))
      .max(MAX_DECODE_IDS, {
        error: `at most ${MAX_DECODE_IDS} token ids per call; split longer streams into several calls`,
      })
      .describe(`Token ids to decode one by one, at most ${MAX_DECODE_IDS}.`),
  })
  .strict()
  .meta({ description: "Token ids to show as text." });

const ZDecodeTokensResponse = z
  .object({
    family: z
      .string()
      .describe(
        "The model family whose vocabulary decoded them (`qwen3`, `gpt-oss`, or the name of the tokenizer directory the server was started with).",
      ),
    tokens: z
      .array(
        z.object({
          id: z.number().int().describe("The token id."),
          text: z.string().describe("What this one token decodes to, special tokens as their text."),
          isPartial: z
            .boolean()
            .describe("True when the token is only part of a character (its text alone is U+FFFD)."),
        }),
      )
      .describe("One entry per requested id, in request order."),
  })
  .meta({ description: "Each token id with its text." });

/** The context's decoder, or a 503 that says why there is none. */
function requireTokenText(ctx: ControlPlaneContext): TokenTextDecoder {
  if (ctx.tokenText) return ctx.tokenText;
  throw requestFailure(
    "UNAVAILABLE",
    "this server has no tokenizer to decode token ids with; start it with one (apps/server uses its policy model's family)",
  );
}

/** Each token id's own text with the model family's vocabulary, for reading a trajectory token by token. */
export const decode = viewerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/tokens/decode",
      operationId: "decodeTokens",
      summary: `Decode up to ${MAX_DECODE_IDS} token ids one by one with the model family's tokenizer.`,
      description: `Returns the text each id stands for on its own (byte-level pieces of one character are marked \`isPartial\`), in request order. More than ${MAX_DECODE_IDS} ids is a 400; 503 when the server has no tokenizer.`,
      errors: ["UNAVAILABLE"],
      example: { ids: [151644, 872, 198] },
    },
  })
  .input(ZDecodeTokensRequest)
  .output(ZDecodeTokensResponse)
  .query(({ ctx, input }) => {
    const decoder = requireTokenText(ctx);
    return { family: decoder.family, tokens: tokenPieces(input.ids, (ids) => decoder.decode(ids)) };
  });
