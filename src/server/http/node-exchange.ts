// The request and the answer as Node holds them, when @hono/node-server serves the app (it hands
// both over as `c.env.incoming` and `c.env.outgoing`; app.request() in tests has neither). Read
// and written there directly, headers cost no web Headers object: hono's `c.req.header()` builds
// one of every request header on first use, and setting a header on `c.res` makes
// @hono/node-server build one of the answer's (about 60 µs a request, measured).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';
import type { AppEnv } from './context';

type NodeBindings = { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;

/** The request as Node received it, when @hono/node-server serves it. */
export function incomingOf(c: Context<AppEnv>): IncomingMessage | undefined {
  return (c.env as NodeBindings)?.incoming;
}

/** A request header (`name` in lower case). */
export function requestHeader(c: Context<AppEnv>, name: string): string | undefined {
  const incoming = incomingOf(c);
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Headers for the answer, whatever the handler answers: set on Node's response before its head
 * is written, where the handler's own headers of the same name replace them (Node merges the
 * two when @hono/node-server writes the head). Without Node's response they are set on `c.res`.
 */
export function setAnswerHeaders(c: Context<AppEnv>, headers: Record<string, string>): void {
  const outgoing = (c.env as NodeBindings)?.outgoing;
  if (outgoing) {
    if (outgoing.headersSent) return;
    for (const name in headers) outgoing.setHeader(name, headers[name] as string);
    return;
  }
  for (const name in headers) if (!c.res.headers.has(name)) c.res.headers.set(name, headers[name] as string);
}
