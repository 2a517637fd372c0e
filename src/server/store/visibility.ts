// Which stored messages a viewer may see, as SQL conditions every message read adds: messages
// of a shadow-banned author, and messages sent pending and not yet committed, reach only their author; a viewer never sees the messages of users
// they blocked; and messages older than a channel's truncation, or than the viewer's own
// "hide with clear_history", are gone for them.
/** A SQL condition and its parameters, ANDed into a message query. */
export type Bound = { sql: string; params: (string | number)[] };

export type Visibility = {
  /** null: a server-side read that names no user (sees everything but truncated history). */
  viewerId: string | null;
  /** Only messages created after this instant (truncation, cleared history). */
  after?: string | null;
};

export function visibilityBounds(visibility: Visibility | undefined): Bound[] {
  if (!visibility) return [];
  const bounds: Bound[] = [];
  if (visibility.after) bounds.push({ sql: 'created_at > ?', params: [visibility.after] });
  if (visibility.viewerId === null) return bounds;
  // A shadowed or pending message exists for its author alone.
  bounds.push({ sql: '((shadowed = 0 AND pending = 0) OR user_id = ?)', params: [visibility.viewerId] });
  bounds.push({
    sql: 'user_id NOT IN (SELECT blocked_user_id FROM user_blocks WHERE user_id = ?)',
    params: [visibility.viewerId],
  });
  return bounds;
}
