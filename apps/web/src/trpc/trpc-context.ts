"use client";

import type { AppRouter } from "@raas/api";
import { createTRPCContext } from "@trpc/tanstack-react-query";

/** tRPC hooks typed by the control plane's router (types only: no server code reaches the browser). */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();
