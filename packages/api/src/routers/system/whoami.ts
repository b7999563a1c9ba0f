import { z } from "zod";
import { ROLES } from "../../auth/auth.types";
import { publicProcedure } from "../../trpc";

export const ZWhoamiRequest = z.void();
export const ZWhoamiResponse = z.object({
  /** The role of the caller's bearer token; null without a token or when it matches no role. */
  role: z.enum(ROLES).nullable(),
  /** `none`: no token sent; `valid`: it matched `role`; `invalid`: it matched no role. */
  token: z.enum(["none", "valid", "invalid"]),
});

/**
 * The role of the caller's token, with no side effect and no token required (an invalid token
 * is reported, not refused), so a dashboard can tell which buttons to enable.
 */
export const whoami = publicProcedure
  .input(ZWhoamiRequest)
  .output(ZWhoamiResponse)
  .query(({ ctx }) => ({ role: ctx.principal.role, token: ctx.principal.token }));
