import { router } from "../../trpc";
import { events } from "./events";
import { get } from "./get";
import { summary } from "./summary";

/** Read-only views of the stored sandbox lifecycle events. */
export const sandboxesRouter = router({ events, summary, get });
