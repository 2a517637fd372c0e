// `npm run bench`: runs every benchmark on this machine and prints one table. Benchmarks
// print; they never fail the test suite. A row over its budget is marked, and the exit
// code stays 0 so a slow shared machine does not block anyone.
import bundleSize from './bundle-size';
import messageLatency from './message-latency';
import type { BenchRow } from './types';

const benches: Array<[string, () => Promise<BenchRow[]>]> = [
  ['bundle', bundleSize],
  ['backend message latency', messageLatency],
];

function format(n: number | undefined): string {
  if (n === undefined || Number.isNaN(n)) return '';
  return Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 2 : 1);
}

function printTable(rows: BenchRow[]) {
  const header = ['benchmark', 'unit', 'budget', 'measured', 'peer', 'ratio', 'verdict', 'note'];
  const lines = rows.map((row) => [
    row.name,
    row.unit,
    format(row.budget),
    format(row.measured),
    format(row.peer),
    row.peer ? `${(row.measured / row.peer).toFixed(2)}x` : '',
    row.budget === undefined ? '' : row.measured <= row.budget ? 'ok' : 'OVER',
    row.note ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => line[i]!.length)));
  const render = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(render(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const line of lines) console.log(render(line));
}

const only = process.argv.slice(2);
const rows: BenchRow[] = [];
for (const [name, run] of benches) {
  if (only.length && !only.some((word) => name.includes(word))) continue;
  process.stderr.write(`running ${name}…\n`);
  try {
    rows.push(...(await run()));
  } catch (error) {
    rows.push({ name, unit: '', measured: Number.NaN, note: `failed: ${(error as Error).message}` });
  }
}
printTable(rows);
process.exit(0);
