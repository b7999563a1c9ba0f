import { router } from "../../trpc";
import { prefetch } from "./prefetch";
import { prefetchStatus } from "./prefetch-status";

/** Images on the workers: prefetch them into their caches (admin), follow a prefetch. */
export const imagesRouter = router({ prefetch, prefetchStatus });
