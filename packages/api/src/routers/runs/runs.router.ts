import { router } from "../../trpc";
import { archive } from "./archive";
import { create } from "./create";
import { curriculum } from "./curriculum";
import { finish } from "./finish";
import { get } from "./get";
import { list } from "./list";
import { steps } from "./steps";

export const runsRouter = router({ create, list, get, finish, steps, archive, curriculum });
