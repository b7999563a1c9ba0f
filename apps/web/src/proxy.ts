import { NextResponse } from "next/server";
import { webEnv } from "../env";
import { dashboardAllowedHosts, refuseForeignHost } from "./server/check-host";

let allowedHosts: string[] | undefined;

/** Runs before every page and API route: only configured host names are served (DNS rebinding). */
export function proxy(request: Request): Response {
  allowedHosts ??= dashboardAllowedHosts(webEnv().RAAS_ALLOWED_HOSTS);
  return refuseForeignHost(request.headers.get("host"), allowedHosts) ?? NextResponse.next();
}
