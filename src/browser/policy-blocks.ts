// A page's Content-Security-Policy that leaves a connection out of `connect-src` fails it just
// as a lost network would: fetch rejects, the socket closes. Only the page's
// `securitypolicyviolation` event tells the two apart, so the panel can say what to add to the
// policy instead of "check your connection". Small on purpose: the element's token request
// (which every page with the loader evaluates) uses it too.

/** Where a connection goes, as a policy names it: `https://host:port`, `wss://host`. */
export function originOf(url: string): string | null {
  try {
    const { protocol, host } = new URL(url, location.href);
    return `${protocol}//${host}`;
  } catch {
    return null;
  }
}

/**
 * Calls `onBlock` with the blocked origin whenever the page's policy refuses a connection to
 * one of `urls`' origins (an http(s) URL also covers its ws(s) form). Returns the stop.
 */
export function watchPolicyBlocks(urls: string[], onBlock: (origin: string) => void): () => void {
  const watched = new Set(
    urls.flatMap((url) => {
      const origin = originOf(url);
      return origin ? [origin, origin.replace(/^http/, 'ws')] : [];
    }),
  );
  const listener = (event: SecurityPolicyViolationEvent) => {
    const origin = event.effectiveDirective === 'connect-src' ? originOf(event.blockedURI) : null;
    if (origin && watched.has(origin)) onBlock(origin);
  };
  // In a worker (the badge's), the worker's global hears its own violations.
  const target: EventTarget = typeof document === 'undefined' ? globalThis : document;
  target.addEventListener('securitypolicyviolation', listener as EventListener);
  return () => target.removeEventListener('securitypolicyviolation', listener as EventListener);
}

/** A request the page's policy refused: `origin` is what connect-src lacks. */
export class PolicyBlocked extends Error {
  constructor(readonly origin: string) {
    super(`Content-Security-Policy connect-src blocks ${origin}`);
    this.name = 'PolicyBlocked';
  }
}

/** How long a failed request waits for the policy's report, which may come a task later. */
const REPORT_WAIT_MS = 100;

/**
 * `request` (a fetch of `url`), failing with PolicyBlocked instead of its own error when the
 * page's policy refused it.
 */
export async function unlessBlocked<T>(url: string, request: () => Promise<T>): Promise<T> {
  let blocked: string | null = null;
  let reported = () => {};
  const stop = watchPolicyBlocks([url], (origin) => {
    blocked = origin;
    reported();
  });
  try {
    return await request();
  } catch (error) {
    if (!blocked) await new Promise<void>((resolve) => ((reported = resolve), setTimeout(resolve, REPORT_WAIT_MS)));
    throw blocked ? new PolicyBlocked(blocked) : error;
  } finally {
    stop();
  }
}
