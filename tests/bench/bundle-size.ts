// Bytes a visitor downloads: dist/chat-widget.js minified, gzip and brotli, split by what
// went in (stream-chat and its dependencies, Preact, our UI, our CSS). The split comes
// from the build's module report: each group's share of the rendered code, applied to the
// compressed totals.
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { BenchRow } from './types';

const BUDGET_GZIP_KB = 140;

function group(id: string): string {
  if (id.includes('src/styles/')) return 'our CSS';
  if (id.startsWith('src/')) return 'our UI, session and element';
  if (/node_modules\/(preact|@r2wc)\//.test(id)) return 'Preact and r2wc';
  return 'stream-chat and its dependencies';
}

export function measureBundle(file = 'dist/chat-widget.js') {
  const code = readFileSync(file);
  const modules = JSON.parse(readFileSync(`${file}.modules.json`, 'utf8')) as Record<string, number>;
  const rendered = Object.values(modules).reduce((sum, n) => sum + n, 0);
  const shares = new Map<string, number>();
  for (const [id, length] of Object.entries(modules)) shares.set(group(id), (shares.get(group(id)) ?? 0) + length / rendered);
  return {
    minified: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    shares,
  };
}

export default async function bundleSize(): Promise<BenchRow[]> {
  const { minified, gzip, brotli, shares } = measureBundle();
  const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;
  const rows: BenchRow[] = [
    { name: 'bundle minified', unit: 'KB', measured: kb(minified) },
    { name: 'bundle gzip', unit: 'KB', measured: kb(gzip), budget: BUDGET_GZIP_KB },
    { name: 'bundle brotli', unit: 'KB', measured: kb(brotli) },
  ];
  for (const [name, share] of [...shares].sort((a, b) => b[1] - a[1])) {
    rows.push({ name: `  gzip share: ${name}`, unit: 'KB', measured: kb(gzip * share), note: `${Math.round(share * 100)}% of the code` });
  }
  return rows;
}
