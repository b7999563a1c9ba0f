import { describeByteLevelFamily } from "../../../test/support/byte-level-differential";

describeByteLevelFamily("gptoss");
