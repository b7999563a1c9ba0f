import { DataTable } from "@raas/ui/data-table";
import { EmptyState } from "@raas/ui/empty-state";
import { Section } from "@raas/ui/section";
import { formatBytes, formatDurationMs, formatPercent } from "../../lib/format";
import type { TWorkerView } from "../../trpc/router-types";

type TWorkerImages = NonNullable<TWorkerView["images"]>;
type THeldImage = TWorkerImages["images"][number];

/** One row per image a worker holds, with the worker's cache totals beside it. */
interface ImageRow {
  workerId: string;
  image: THeldImage;
}

function hitRate(hits: number, misses: number): number | null {
  return hits + misses === 0 ? null : hits / (hits + misses);
}

/** The name an image is known by: its last path segment, the whole path in the tooltip. */
function imageName(image: THeldImage): string {
  const reference = image.references[0] ?? image.key;
  return reference.split("/").filter(Boolean).at(-1) ?? reference;
}

/**
 * Each worker's image cache as its last heartbeat reported it: bytes used against the cap, hits
 * and misses since it started, and the images it holds unpacked with how long each took to unpack.
 */
export function WorkerImages({ workers }: { workers: readonly TWorkerView[] }) {
  const reporting = workers.filter((worker) => worker.images !== null);
  const rows: ImageRow[] = reporting.flatMap((worker) =>
    (worker.images?.images ?? []).map((image) => ({ workerId: worker.id, image })),
  );
  return (
    <Section
      id="worker-images"
      title="Images per worker"
      description="Each worker's image cache at its last heartbeat: what it holds unpacked, how full it is, and how often a sandbox found its image already there. Warm workers before a run with images.prefetch."
    >
      {reporting.length === 0 ? (
        <EmptyState title="No worker reports an image cache.">
          <p>Workers running bubblewrap sandboxes report theirs with every heartbeat.</p>
        </EmptyState>
      ) : (
        <>
          <DataTable
            caption="Image cache per worker"
            columns={[
              {
                key: "worker",
                header: "worker",
                cell: (worker) => <span className="mono">{worker.id}</span>,
              },
              {
                key: "images",
                header: "images held",
                isNumeric: true,
                cell: (worker) => worker.images?.images.length ?? 0,
                cellTestId: (worker) => `image-count-${worker.id}`,
              },
              {
                key: "size",
                header: "cache size / cap",
                isNumeric: true,
                cell: (worker) =>
                  `${formatBytes(worker.images?.usedBytes ?? 0)} / ${formatBytes(worker.images?.capBytes ?? 0)}`,
                cellTestId: (worker) => `image-cache-size-${worker.id}`,
              },
              {
                key: "hits",
                header: "hits / misses",
                isNumeric: true,
                cell: (worker) => `${worker.images?.hits ?? 0} / ${worker.images?.misses ?? 0}`,
                cellTestId: (worker) => `image-hits-${worker.id}`,
              },
              {
                key: "hit-rate",
                header: "hit rate",
                isNumeric: true,
                cell: (worker) =>
                  formatPercent(hitRate(worker.images?.hits ?? 0, worker.images?.misses ?? 0)),
              },
            ]}
            rows={reporting}
            rowKey={(worker) => worker.id}
            testId="worker-image-cache-table"
          />
          {rows.length === 0 ? null : (
            <DataTable
              caption="Images held unpacked"
              columns={[
                {
                  key: "worker",
                  header: "worker",
                  cell: (row) => <span className="mono">{row.workerId}</span>,
                },
                {
                  key: "image",
                  header: "image",
                  cell: (row) => (
                    <span className="mono" title={row.image.references.join("\n")}>
                      {imageName(row.image)}
                    </span>
                  ),
                },
                {
                  key: "size",
                  header: "size",
                  isNumeric: true,
                  cell: (row) => formatBytes(row.image.sizeBytes),
                },
                {
                  key: "unpack",
                  header: "unpack time",
                  isNumeric: true,
                  cell: (row) => formatDurationMs(row.image.unpackMs),
                  cellTestId: (row) => `image-unpack-${row.workerId}-${row.image.key}`,
                },
                {
                  key: "hits",
                  header: "hits / misses",
                  isNumeric: true,
                  cell: (row) => `${row.image.hits} / ${row.image.misses}`,
                },
              ]}
              rows={rows}
              rowKey={(row) => `${row.workerId} ${row.image.key}`}
              testId="worker-images-table"
            />
          )}
        </>
      )}
    </Section>
  );
}
