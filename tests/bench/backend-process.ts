import type { ChildProcess } from 'node:child_process';

/**
 * The URL a forked backend (fanout-server.ts, holds-server.ts) reports once it listens: its
 * `{ type: 'ready', url }` message, or an error if it exits or is silent for 30 s.
 */
export function whenListening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the backend did not start')), 30_000);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the backend exited with ${code}`)));
    child.on('message', (message: { type: string; url?: string }) => {
      if (message.type !== 'ready' || !message.url) return;
      clearTimeout(timer);
      resolve(message.url);
    });
  });
}
