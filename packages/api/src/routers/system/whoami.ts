import { z } from "zod";
import { ROLES } from "../../auth/auth.types";
import { publicProcedure } from "../../trpc";

const ZWhoamiRequest = z.void();
const ZWhoamiResponse = z
  .object({
    role: z
      .enum(ROLES)
      .nullable()
      .describe("The role of the caller's bearer token; null without a token or when it matches no role."),
    token: z
      .enum(["none", "valid", "invalid"])
      .describe("`none`: no token sent; `valid`: it matched `role`; `invalid`: it matched no role."),
  })
  .meta({ description: "The caller's role." });

/**
 * The role of the caller's token, with no side effect and no token required (an invalid token
 * is reported, not refused), so a dashboard can tell which buttons to enable.
 */
export const whoami = publicProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/whoami",
      operationId: "whoami",
      summary:
        "The role of the bearer token sent (admin, trainer, viewer or null) and whether it is valid; no side effect, no token needed.",
      description:
        "Reports which role the `Authorization: Bearer` token has, so a client can check its token before it submits work. An invalid token is reported (`token: invalid`), not refused.",
    },
  })
  .input(ZWhoamiRequest)
  .output(ZWhoamiResponse)
  .query(({ ctx }) => ({ role: ctx.principal.role, token: ctx.principal.token }));
