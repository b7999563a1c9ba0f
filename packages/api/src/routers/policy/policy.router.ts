import { router } from "../../trpc";
import { get } from "./get";
import { list } from "./list";
import { pause } from "./pause";
import { resume } from "./resume";
import { setWeightVersion } from "./set-weight-version";

export const policyRouter = router({ get, list, setWeightVersion, pause, resume });
