import { router } from "../../trpc";
import { drain } from "./drain";
import { list } from "./list";
import { resume } from "./resume";

/** The worker registry: list with occupancy and heartbeat age; drain and resume (admin). */
export const workersRouter = router({ list, drain, resume });
