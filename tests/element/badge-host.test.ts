// The page's side of the badge (element/badge-host.ts) against a stand-in worker: what it
// promises when the worker does not answer, fails after a stop, or its page freezes. The worker
// itself, its socket and its lock, are tested in Chromium (tests/e2e/returning-visitor.test.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BadgeHost } from '../../src/element/badge-host';
import type { BadgeIdentity, FromBadge, ToBadge } from '../../src/element/badge-client';

class StandInWorker {
  static made: StandInWorker[] = [];
  onmessage: ((event: { data: FromBadge }) => void) | null = null;
  onerror: ((event: { preventDefault(): void }) => void) | null = null;
  readonly told: ToBadge[] = [];
  terminated = false;
  constructor(readonly url: string) {
    StandInWorker.made.push(this);
  }
  postMessage(note: ToBadge) {
    this.told.push(note);
  }
  terminate() {
    this.terminated = true;
  }
  say(data: FromBadge) {
    this.onmessage?.({ data });
  }
}

const identity: BadgeIdentity = { apiKey: 'key', baseUrl: 'http://127.0.0.1:9', tokenEndpoint: '/token', userName: null, channel: null, guestId: null };
const script = `${location.origin}/chat-widget.badge.js`;

/** Every host a test started: stopped after it, so that no page listener of one hears the next. */
const hosts: BadgeHost[] = [];

function host() {
  const listener = { count: vi.fn(), message: vi.fn(), fallback: vi.fn() };
  const badge = new BadgeHost(identity, listener, script);
  hosts.push(badge);
  badge.start();
  const worker = StandInWorker.made.at(-1)!;
  return { badge, listener, worker };
}

beforeEach(() => {
  StandInWorker.made = [];
  vi.stubGlobal('Worker', StandInWorker);
});

afterEach(() => {
  for (const badge of hosts.splice(0)) void badge.stop();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the badge host', () => {
  it('starts a worker from the script beside the widget, with the token endpoint made absolute', () => {
    const { worker } = host();
    expect(worker.url).toBe(script);
    expect(worker.told).toEqual([{ start: { ...identity, tokenEndpoint: `${location.origin}/token` } }]);
  });

  it('passes on counts, and a pause settles once the worker says its socket has closed', async () => {
    const { badge, listener, worker } = host();
    worker.say({ count: 3 });
    expect(listener.count).toHaveBeenCalledWith(3);
    let paused = false;
    void badge.pause().then(() => (paused = true));
    expect(worker.told.at(-1)).toEqual({ pause: 1 });
    await Promise.resolve();
    expect(paused).toBe(false);
    worker.say({ left: 1 });
    await vi.waitFor(() => expect(paused).toBe(true));
    expect(worker.terminated).toBe(false);
  });

  it('ends a worker that does not answer a stop (its script still downloading), and the stop settles', async () => {
    vi.useFakeTimers();
    const { badge, worker } = host();
    let stopped = false;
    void badge.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(1000);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(600);
    expect(stopped).toBe(true);
    expect(worker.terminated).toBe(true);
  });

  it('answers a stop at once when the worker then fails, without starting the chat for the count', async () => {
    vi.useFakeTimers();
    const { badge, listener, worker } = host();
    let stopped = false;
    void badge.stop().then(() => (stopped = true));
    worker.onerror?.({ preventDefault: () => undefined });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(true);
    expect(worker.terminated).toBe(true);
    expect(listener.fallback).not.toHaveBeenCalled();
  });

  it('hands the count to the chat when the worker fails, and hears nothing from it after', () => {
    const { listener, worker } = host();
    worker.onerror?.({ preventDefault: () => undefined });
    expect(listener.fallback).toHaveBeenCalledTimes(1);
    expect(worker.terminated).toBe(true);
    worker.say({ count: 5 });
    expect(listener.count).not.toHaveBeenCalled();
  });

  it('ends the worker when the page freezes, and starts another when it resumes', () => {
    const { worker } = host();
    document.dispatchEvent(new Event('freeze'));
    expect(worker.terminated).toBe(true);
    document.dispatchEvent(new Event('resume'));
    expect(StandInWorker.made).toHaveLength(2);
    expect(StandInWorker.made[1]!.told[0]).toHaveProperty('start');
  });

  it('without the script folder (a bundled module), hands the count to the chat', async () => {
    const listener = { count: vi.fn(), message: vi.fn(), fallback: vi.fn() };
    new BadgeHost(identity, listener, null).start();
    expect(StandInWorker.made).toHaveLength(0);
    await vi.waitFor(() => expect(listener.fallback).toHaveBeenCalledTimes(1));
  });
});
