import { router } from "../../trpc";
import { cancel } from "./cancel";
import { events } from "./events";
import { exportJob } from "./export";
import { exportBatch } from "./export-batch";
import { gatewayCalls } from "./gateway-calls";
import { gatewayTraces } from "./gateway-traces";
import { get } from "./get";
import { list } from "./list";
import { submit } from "./submit";
import { submitMany } from "./submit-many";
import { trajectory } from "./trajectory";
import { wait } from "./wait";

export const jobsRouter = router({
  submit,
  submitMany,
  get,
  list,
  cancel,
  wait,
  trajectory,
  export: exportJob,
  exportBatch,
  gatewayTraces,
  gatewayCalls,
  events,
});
