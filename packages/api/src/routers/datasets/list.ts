import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { requireBatches } from "../runs/require-batches";

const ZDatasetView = z
  .object({
    name: z.string().describe('The name a step\'s `tasks: { type: "dataset", dataset }` uses.'),
    size: z.number().int().nonnegative().describe("Tasks in the dataset."),
    kinds: z.array(z.string()).describe("Handler kinds of its tasks."),
  })
  .meta({ id: "Dataset", description: "A dataset a step may draw its tasks from." });

const ZListDatasetsResponse = z
  .object({ items: z.array(ZDatasetView).describe("The datasets, by name.") })
  .meta({ description: "The datasets this server knows." });

/** The datasets a step may name as its task source. */
export const list = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/datasets",
      operationId: "listDatasets",
      summary: "The datasets a step may draw its tasks from, with sizes and handler kinds.",
      description:
        'Datasets whose handler is registered on this server (e.g. the shipped `math`, `code`, `stem` and `swe`). A step names one as `tasks: { type: "dataset", dataset }`; the run\'s steps go through it in order and start over when it runs out. Empty when the server knows none; 503 when the server runs no batch system.',
      errors: ["UNAVAILABLE"],
    },
  })
  .output(ZListDatasetsResponse)
  .query(async ({ ctx }) => {
    const { catalog } = requireBatches(ctx);
    const items = catalog ? await catalog.list() : [];
    return { items: [...items].sort((a, b) => a.name.localeCompare(b.name)) };
  });
