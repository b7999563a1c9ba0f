import { appRouter } from "../root";
import { collectRestRoutes } from "./collect-rest-routes";
import type { RestRoute } from "./rest-route.types";

/**
 * The REST surface for trainers that speak plain HTTP (e.g. Python): every procedure that declares
 * `.meta({ openapi })`, served by calling the same procedure. Nothing else lists routes.
 */
export const REST_ROUTES: readonly RestRoute[] = collectRestRoutes(appRouter);
