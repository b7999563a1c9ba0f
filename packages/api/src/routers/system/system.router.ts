import { router } from "../../trpc";
import { health } from "./health";
import { setConcurrency } from "./set-concurrency";
import { stats } from "./stats";
import { whoami } from "./whoami";

export const systemRouter = router({ health, stats, setConcurrency, whoami });
