import { router } from "../../trpc";
import { cancel } from "./cancel";
import { create } from "./create";
import { get } from "./get";
import { groups } from "./groups";
import { next } from "./next";
import { onGroups } from "./on-groups";

export const stepsRouter = router({ create, get, groups, next, cancel, onGroups });
