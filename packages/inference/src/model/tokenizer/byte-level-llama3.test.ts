import { describeByteLevelFamily } from "../../../test/support/byte-level-differential";

describeByteLevelFamily("llama3_2");
describeByteLevelFamily("llama3_1");
