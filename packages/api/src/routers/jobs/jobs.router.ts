import { router } from "../../trpc";
import { cancel } from "./cancel";
import { events } from "./events";
import { get } from "./get";
import { list } from "./list";
import { submit } from "./submit";
import { submitMany } from "./submit-many";
import { trajectory } from "./trajectory";
import { wait } from "./wait";

export const jobsRouter = router({ submit, submitMany, get, list, cancel, wait, trajectory, events });
