import { router } from "../../trpc";
import { get } from "./get";
import { list } from "./list";
import { recordOracle } from "./record-oracle";
import { register } from "./register";

export const environmentsRouter = router({ register, list, get, recordOracle });
