// One benchmark result row: what was measured, in which unit, and what it is compared with.
export type BenchRow = {
  name: string;
  unit: string;
  measured: number;
  /** The most `measured` may be for the row to pass. */
  budget?: number;
  /** The same measurement for a reference implementation, when there is one. */
  peer?: number;
  note?: string;
};
