// Which stored messages a viewer may see, as SQL conditions every message read adds: messages
// of a shadow-banned author, and messages sent pending and not yet committed, reach only their author; a viewer never sees the messages of users
// they blocked; a message with restricted visibility reaches its author and the users it lists;
// and messages older than a channel's truncation, or than the viewer's own "hide with
// clear_history", are gone for them.
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
  bounds.push({ sql: SEEN_BY, params: seenByParams(visibility.viewerId) });
  return bounds;
}

/**
 * A message everyone may see (no shadow ban, not pending, no restricted list): what counters
 * and read markers others hear of may count or name. `alias`: the messages table's, if any.
 */
export function seenByEveryone(alias = ''): string {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return `${column('shadowed')} = 0 AND ${column('pending')} = 0 AND ${column('restricted_visibility')} IS NULL`;
}

/**
 * A message the user may see as far as `restricted_visibility` goes (parameters: seenByParams).
 * The list is stored as JSON.stringify writes it, so `,"id",` in it with its brackets turned to
 * commas is that id as a whole element: inside a JSON string every `"` is escaped. A lookup with
 * json_each would say the same, but a subquery per row costs a relevance search a third more.
 */
export const SEEN_BY =
  "(restricted_visibility IS NULL OR user_id = ? OR instr(',' || substr(restricted_visibility, 2, length(restricted_visibility) - 2) || ',', ?) > 0)";

/** The parameters of SEEN_BY for one viewer. */
export function seenByParams(viewerId: string): [string, string] {
  return [viewerId, `,${JSON.stringify(viewerId)},`];
}

/** The users a message is restricted to besides its author, or null when everyone may see it. */
export function restrictedTo(message: { restricted_visibility?: string | string[] | null }): string[] | null {
  const listed = message.restricted_visibility;
  const ids = typeof listed === 'string' ? (JSON.parse(listed) as string[]) : listed;
  return ids?.length ? ids : null;
}

/** Whether `viewerId` may see a message of `authorId` restricted to `listed` (null: unrestricted). */
export function seesRestricted(listed: string[] | null, authorId: string, viewerId: string): boolean {
  return listed === null || viewerId === authorId || listed.includes(viewerId);
}
