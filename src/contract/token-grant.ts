// The token endpoint's answer, read the same way by the session and by the element's badge client.
import { parseChannel, type ChannelRef } from './attributes';

export interface TokenGrant {
  token: string;
  user: { id: string; name?: string; image?: string; [field: string]: unknown };
  /** The site's server chose this visitor's conversation (`type:id`), e.g. their own support channel. */
  channel?: ChannelRef;
}

/**
 * `{"token": "<jwt>", "user": {"id": …}, "channel"?: "type:id"}` as a grant; otherwise what is
 * wrong with it: `shape` (no token or user id), `channel` (a channel that is not `type:id`).
 */
export function readGrant(body: unknown): TokenGrant | 'shape' | 'channel' {
  const grant = body as Partial<TokenGrant> | null;
  if (typeof grant?.token !== 'string' || !grant.token || typeof grant.user?.id !== 'string' || !grant.user.id) return 'shape';
  const { channel } = body as { channel?: unknown };
  if (channel === undefined || channel === null) return { token: grant.token, user: grant.user };
  const ref = typeof channel === 'string' ? parseChannel(channel) : null;
  if (!ref || 'reason' in ref) return 'channel';
  return { token: grant.token, user: grant.user, channel: ref };
}

/** A guest as the backend answered it, as the SDK's setGuestUser connects it: without what the backend sets itself. */
export function guestDetails<T extends { id: string }>(user: T & { created_at?: unknown; updated_at?: unknown; last_active?: unknown; online?: unknown }): T {
  const { created_at, updated_at, last_active, online, ...guest } = user;
  return guest as T;
}
