import { describeByteLevelFamily } from "../../../test/support/byte-level-differential";

describeByteLevelFamily("qwen3");
