// `npm run bench`: runs every benchmark on this machine and prints one table. Benchmarks
// print; they never fail the test suite. A row over its budget is marked, and the exit
// code stays 0 so a slow shared machine does not block anyone.
import { cpus, loadavg } from 'node:os';
import bundleSize from './bundle-size';
import channelView from './channel-view';
import composerKeystroke from './composer-keystroke';
import fanout from './fanout';
import hostPage from './host-page';
import idAround from './id-around';
import joinStorm from './join-storm';
import longPoll from './long-poll';
import search from './search';
import memory from './memory';
import messageLatency from './message-latency';
import openToMessage from './open-to-message';
import cachedOpen from './cached-open';
import reconnect from './reconnect';
import returningVisitor from './returning-visitor';
import tabs from './tabs';
import { bodyBomb, deadClients, slowReaders, soak, soakTimeoutMs } from './holds';
import type { BenchRow } from './types';

const benches: Array<[string, () => Promise<BenchRow[]>, number?]> = [
  ['bundle', bundleSize],
  ['host page', hostPage],
  // The same page for a browser that chatted before: 66 loads of two views, each traced 4 s past its load event.
  ['returning visitor', returningVisitor, 15 * 60_000],
  ['open to first message', openToMessage],
  // The visitor's network: an outage with messages missed meanwhile.
  ['reconnect', reconnect],
  ['cached open', cachedOpen],
  // One realtime connection shared by a visitor's tabs, and the takeover when its holder closes.
  ['sockets for three tabs', tabs],
  ['backend message latency', messageLatency],
  ['backend fan-out', fanout],
  // Big rooms: N sockets joining one N-member channel at once.
  ['join storm', joinStorm],
  // Long-poll delivery beside the WebSocket's at 100 clients.
  ['long-poll', longPoll],
  ['memory', memory],
  ['channel view (long channels)', channelView],
  ['backend id_around on 1,000,000 messages', idAround],
  ['search over 1,000,000 messages', search],
  ['composer keystroke with 10,000 users', composerKeystroke],
  // The backend holds: faults and abuse, measured on the server's own RSS.
  ['slow readers', slowReaders],
  ['dead clients', deadClients],
  ['body bomb', bodyBomb],
  ['soak', soak, soakTimeoutMs()],
];

/** A benchmark that has not finished by then (unless it sets its own) is reported as failed and the run goes on. */
const BENCH_TIMEOUT_MS = 6 * 60_000;

// Benchmarks never fail the run: a stray rejection is reported, not fatal.
process.on('unhandledRejection', (error) => process.stderr.write(`unhandled rejection: ${(error as Error)?.message ?? error}\n`));

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

// Words pick benchmarks by name; `--…` options are for the benchmarks themselves (--soak-minutes=N).
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const rows: BenchRow[] = [];
const loadBefore = loadavg()[0] ?? Number.NaN;
const runStarted = performance.now();
for (const [name, run, timeoutMs = BENCH_TIMEOUT_MS] of benches) {
  if (only.length && !only.some((word) => name.includes(word))) continue;
  process.stderr.write(`running ${name}…\n`);
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`did not finish within ${timeoutMs / 60_000} minutes`)), timeoutMs);
    });
    rows.push(...(await Promise.race([run(), timeout])));
  } catch (error) {
    rows.push({ name, unit: '', measured: Number.NaN, note: `failed: ${(error as Error).message}` });
  } finally {
    clearTimeout(timer);
  }
  process.stderr.write(`  ${name}: ${Math.round((performance.now() - started) / 1000)} s\n`);
}
printTable(rows);
const minutes = Math.round((performance.now() - runStarted) / 6000) / 10;
console.log(
  `\n${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}; ` +
    `load average ${loadBefore.toFixed(2)} at the start, ${(loadavg()[0] ?? Number.NaN).toFixed(2)} at the end; ${minutes} min.`,
);
process.exit(0);
