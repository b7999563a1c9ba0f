import { router } from "../../trpc";
import { drain } from "./drain";
import { list } from "./list";
import { register } from "./register";
import { remove } from "./remove";
import { resume } from "./resume";
import { setWeightVersion } from "./set-weight-version";

export const backendsRouter = router({ register, list, drain, resume, remove, setWeightVersion });
