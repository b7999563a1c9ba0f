/** One sample line of the Prometheus text format. */
export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE_LINE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g;

/** The samples of a Prometheus text body whose metric is `name` or `name_total` (counters). */
export function readPrometheusSamples(text: string, name: string): PrometheusSample[] {
  const samples: PrometheusSample[] = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("#") || line.trim() === "") continue;
    const match = SAMPLE_LINE.exec(line);
    if (!match) continue;
    const metric = match[1] as string;
    if (metric !== name && metric !== `${name}_total`) continue;
    const value = Number(match[3]);
    if (!Number.isFinite(value)) continue;
    const labels: Record<string, string> = {};
    for (const label of (match[2] ?? "").matchAll(LABEL)) labels[label[1] as string] = label[2] as string;
    samples.push({ name: metric, labels, value });
  }
  return samples;
}

/**
 * Sums the samples of a Prometheus metric across label sets. Accepts the name with or without the
 * `_total` suffix counters carry. Returns null when the metric is absent.
 */
export function readPrometheusMetric(text: string, name: string): number | null {
  const samples = readPrometheusSamples(text, name);
  return samples.length === 0 ? null : samples.reduce((sum, sample) => sum + sample.value, 0);
}
