import { router } from "../../trpc";
import { decode } from "./decode";

export const tokensRouter = router({ decode });
