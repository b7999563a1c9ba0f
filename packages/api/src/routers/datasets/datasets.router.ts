import { router } from "../../trpc";
import { list } from "./list";

export const datasetsRouter = router({ list });
