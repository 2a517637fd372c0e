// The page's side of the returning visitor's badge: the badge client (badge-client.ts) runs in a
// dedicated worker (dist/chat-widget.badge.js, beside the widget's script), and this hands it
// the identity, passes on the element's pause, resume and stop, and hears its counts. Where no
// worker can start (the script missing, a Content-Security-Policy refusing it, an error in it),
// the listener's fallback starts the full chat for the count. A frozen page's worker is ended at
// once, which lets go of its socket and its lock for another tab; a new one starts on resume.
import type { BadgeIdentity, BadgeListener, FromBadge, ToBadge } from './badge-client';

/** The badge worker's script, in the widget script's folder, with its query (versions match); null where that folder is unknown (a bundled module). */
export function badgeScript(base: string | null): string | null {
  if (!base) return null;
  const here = new URL(base, document.baseURI);
  const url = new URL('chat-widget.badge.js', here);
  url.search = here.search;
  return url.href;
}

/**
 * A worker running `script`: from its own address where it is the page's origin (what a strict
 * policy allowing the script's origin allows), else through a blob that imports it (a worker
 * must be of the page's origin).
 */
function spawn(script: string): { worker: Worker; done: () => void } {
  const options = { name: 'chat-widget badge' };
  if (new URL(script).origin === location.origin) return { worker: new Worker(script, options), done: () => {} };
  const blob = URL.createObjectURL(new Blob([`importScripts(${JSON.stringify(script)})`], { type: 'text/javascript' }));
  return { worker: new Worker(blob, options), done: () => URL.revokeObjectURL(blob) };
}

type Role = 'idle' | 'running' | 'paused' | 'stopped';

/** How long a pause or stop waits for the worker's answer (its socket closes within a second) before ending it. */
const ANSWER_WAIT_MS = 1500;

export class BadgeHost {
  private role: Role = 'idle';
  private worker: Worker | null = null;
  /** Lets go of what starting the worker took (a blob's URL). */
  private spawned = () => {};
  private asked = 0;
  /** The last pause or stop: a second one (or a stop during a pause) waits for it too. */
  private leaving: Promise<void> = Promise.resolve();
  /** Pauses and stops waiting for the worker's socket to close, by number. */
  private readonly waiting = new Map<number, () => void>();
  private readonly identity: BadgeIdentity;
  private readonly stops: Array<() => void> = [];

  constructor(
    identity: BadgeIdentity,
    private readonly listener: BadgeListener,
    private readonly script: string | null,
  ) {
    // A worker has no page to resolve the token endpoint's address against (the backend's is absolute).
    const { tokenEndpoint } = identity;
    this.identity = { ...identity, tokenEndpoint: tokenEndpoint && new URL(tokenEndpoint, document.baseURI).href };
    const listen = (type: string, handler: () => void) => {
      document.addEventListener(type, handler);
      this.stops.push(() => document.removeEventListener(type, handler));
    };
    // Nothing runs in a frozen page, its worker included: ended now, its socket and lock go with it.
    listen('freeze', () => this.end());
    listen('resume', () => {
      if (this.role === 'running' && !this.worker) this.run();
    });
  }

  start(): void {
    if (this.role !== 'idle') return;
    this.role = 'running';
    this.run();
  }

  /** The worker's socket closes (the visitor reaches for the chat): resolves once it has. */
  pause(): Promise<void> {
    if (this.role !== 'running') return this.leaving;
    this.role = 'paused';
    return (this.leaving = this.ask((number) => ({ pause: number })));
  }

  resume(): void {
    if (this.role !== 'paused') return;
    this.role = 'running';
    if (this.worker) this.post({ resume: true });
    else this.run();
  }

  /** Done for good: resolves once the worker's socket has closed, and ends the worker. */
  stop(): Promise<void> {
    if (this.role === 'stopped') return this.leaving;
    this.role = 'stopped';
    this.stops.splice(0).forEach((stop) => stop());
    return (this.leaving = this.ask((number) => ({ stop: number })).then(() => this.end()));
  }

  private run() {
    // No folder to take the worker from: the full chat counts (a task later: start runs within a render).
    if (!this.script) return void queueMicrotask(() => this.fail());
    let spawned: ReturnType<typeof spawn>;
    try {
      spawned = spawn(this.script);
    } catch {
      return this.fail();
    }
    const { worker, done } = spawned;
    this.worker = worker;
    this.spawned = done;
    worker.onmessage = ({ data }: MessageEvent<FromBadge>) => {
      if (this.worker !== worker) return;
      if ('count' in data) this.listener.count(data.count);
      else if ('message' in data) this.listener.message(data.message, data.own);
      else if ('fallback' in data) this.fail();
      else if ('left' in data) {
        this.waiting.get(data.left)?.();
        this.waiting.delete(data.left);
      }
    };
    // The script could not be loaded or run (or the policy refused it): the full chat counts.
    worker.onerror = (event) => {
      event.preventDefault();
      if (this.worker === worker) this.fail();
    };
    this.post({ start: this.identity });
  }

  private post(note: ToBadge) {
    this.worker?.postMessage(note);
  }

  /**
   * Asks the worker to let go of its socket; answered by its `left`, at once without a worker, or
   * by ending the worker where no answer comes in time (its script still downloading, say).
   */
  private ask(note: (number: number) => ToBadge): Promise<void> {
    if (!this.worker) return Promise.resolve();
    const number = ++this.asked;
    const left = new Promise<void>((resolve) => this.waiting.set(number, resolve));
    const late = setTimeout(() => this.waiting.has(number) && this.end(), ANSWER_WAIT_MS);
    this.post(note(number));
    return left.then(() => clearTimeout(late));
  }

  /** Ends the worker: its socket and lock go with it; whoever waited for them goes on. */
  private end() {
    this.worker?.terminate();
    this.worker = null;
    this.spawned();
    this.spawned = () => {};
    for (const resolve of this.waiting.values()) resolve();
    this.waiting.clear();
  }

  /** The worker cannot count: it ends (answering a pending stop), and the full chat counts unless the element already stopped it. */
  private fail() {
    const stopped = this.role === 'stopped';
    this.role = 'stopped';
    this.stops.splice(0).forEach((stop) => stop());
    this.end();
    if (!stopped) this.listener.fallback();
  }
}
