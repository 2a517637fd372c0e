/**
 * How long work deferred after connecting (the live locations' restore, the app settings) waits
 * at most for an idle moment, ms.
 */
export const AFTER_CONNECT_IDLE_MS = 2_000;

/**
 * Runs `work` once the page's main thread is idle (at the latest after `timeoutMs`, when
 * given): for what the visitor is not waiting for. requestIdleCallback is missing in Safari
 * before 18.2 (and in some test DOMs); there it runs a task later. Returns the cancel.
 */
export function whenIdle(work: () => void, timeoutMs?: number): () => void {
  if (typeof window !== 'undefined' && 'requestIdleCallback' in window) {
    const id = requestIdleCallback(() => work(), timeoutMs === undefined ? undefined : { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(work);
  return () => clearTimeout(id);
}
