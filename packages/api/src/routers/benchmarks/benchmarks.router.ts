import { router } from "../../trpc";
import { createRun } from "./create-run";
import { finishRun } from "./finish-run";
import { get } from "./get";
import { list } from "./list";
import { recordResults } from "./record-results";
import { results } from "./results";

export const benchmarksRouter = router({ createRun, recordResults, finishRun, get, list, results });
