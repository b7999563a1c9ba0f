import { router } from "../../trpc";
import { get } from "./get";
import { pause } from "./pause";
import { resume } from "./resume";
import { setWeightVersion } from "./set-weight-version";

export const policyRouter = router({ get, setWeightVersion, pause, resume });
