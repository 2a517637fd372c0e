/** The value below which `p` percent of the samples fall (nearest rank). */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export const median = (samples: number[]) => percentile(samples, 50);

/** The samples' range, for a row's note: "min–max" with one decimal (every browser row prints its spread). */
export function spread(samples: number[]): string {
  const finite = samples.filter(Number.isFinite);
  if (!finite.length) return 'n/a';
  const one = (n: number) => Math.round(n * 10) / 10;
  return `${one(Math.min(...finite))}–${one(Math.max(...finite))}`;
}
