import { describeByteLevelFamily } from "../../../test/support/byte-level-differential";

describeByteLevelFamily("deepseek_v3");
