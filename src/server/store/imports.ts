// Imports and exports: the imports table (one row per import of a provider
// import file: its state and the history of its states), and the few reads and writes the
// import and export tasks need beyond the other stores: pages of all users and all live channels
// (the whole app's export), pages of a channel's messages, reactions and members in storage
// order, and updates of rows an upsert import finds existing.
import { placeholders, type Db } from './db';
import type { ChannelRow, MemberRow } from './channels';
import type { MessageRow } from './messages';
import type { ReactionRow } from './reactions';
import type { UserRow } from './users';

export type ImportState = 'uploaded' | 'analyzing' | 'importing' | 'completed' | 'failed';
export type ImportRow = {
  id: string;
  path: string;
  mode: string;
  state: ImportState;
  size: number | null;
  result: string | null;
  history: string;
  created_at: string;
  updated_at: string;
};
export type ImportHistory = { created_at: string; prev_state: string; next_state: string };

export function createImportStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO imports (id, path, mode, state, size, created_at, updated_at)
     VALUES (@id, @path, @mode, 'uploaded', @size, @now, @now)`,
  );
  const one = db.prepare<[string], ImportRow>('SELECT * FROM imports WHERE id = ?');
  const page = db.prepare<[number, number], ImportRow>(
    'SELECT * FROM imports ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?',
  );
  const setState = db.prepare('UPDATE imports SET state = ?, history = ?, result = COALESCE(?, result), updated_at = ? WHERE id = ?');

  const userPage = db.prepare<[string, number], UserRow>('SELECT * FROM users WHERE id > ? ORDER BY id LIMIT ?');
  const channelPage = db.prepare<[string, number], ChannelRow>(
    'SELECT * FROM channels WHERE cid > ? AND deleted_at IS NULL ORDER BY cid LIMIT ?',
  );
  const messagePage = db.prepare<[string, number, number], MessageRow>(
    'SELECT * FROM messages WHERE cid = ? AND seq > ? AND hard_deleted = 0 AND pending = 0 AND shadowed = 0 ORDER BY seq LIMIT ?',
  );
  const membersOf = db.prepare<[string], MemberRow>('SELECT * FROM members WHERE cid = ? ORDER BY created_at, user_id');
  const updateMessage = db.prepare(
    'UPDATE messages SET text = ?, attachments = ?, custom = ?, updated_at = ?, deleted_at = ? WHERE id = ?',
  );
  const setMemberRole = db.prepare('UPDATE members SET role = ?, channel_role = ?, updated_at = ? WHERE cid = ? AND user_id = ?');
  const setDeleted = db.prepare('UPDATE messages SET deleted_at = ? WHERE id = ?');
  // An import interrupted by a restart cannot resume (its task's closure is gone, as
  // store/tasks.ts says of tasks): it ends failed instead of staying where it stopped.
  db.prepare(
    `UPDATE imports SET state = 'failed',
       history = json_insert(history, '$[#]', json_object('created_at', @now, 'prev_state', state, 'next_state', 'failed')),
       result = '{"error":"the server restarted while the import ran"}', updated_at = @now
     WHERE state IN ('uploaded', 'analyzing', 'importing')`,
  ).run({ now: new Date().toISOString() });

  return {
    create: (row: { id: string; path: string; mode: string; size: number | null; now: string }) => void insert.run(row),
    get: (id: string) => one.get(id),
    list: (limit: number, offset: number) => page.all(limit, offset),
    /** Moves the import to `state`, recording the move in its history (and its result, if given). */
    move(id: string, state: ImportState, now: string, result?: unknown) {
      const row = one.get(id);
      if (!row) return;
      const history = JSON.parse(row.history) as ImportHistory[];
      history.push({ created_at: now, prev_state: row.state, next_state: state });
      setState.run(state, JSON.stringify(history), result === undefined ? null : JSON.stringify(result), now, id);
    },
    /** Up to `limit` users after `afterId`, by id. */
    usersAfter: (afterId: string, limit: number) => userPage.all(afterId, limit),
    /** Up to `limit` channels not deleted after `afterCid`, by cid. */
    channelsAfter: (afterCid: string, limit: number) => channelPage.all(afterCid, limit),
    /** Up to `limit` of a channel's delivered messages after `afterSeq`, replies included, in storage order. */
    messagesAfter: (cid: string, afterSeq: number, limit: number) => messagePage.all(cid, afterSeq, limit),
    /** The reactions on these messages (a page of them), oldest first. */
    reactionsOn(messageIds: string[]): ReactionRow[] {
      if (!messageIds.length) return [];
      return db
        .prepare<string[], ReactionRow>(
          `SELECT * FROM reactions WHERE message_id IN (${placeholders(messageIds.length)}) ORDER BY created_at, message_id, user_id`,
        )
        .all(...messageIds);
    },
    membersIn: (cid: string) => membersOf.all(cid),
    updateMessage: (id: string, text: string, attachments: unknown[], custom: Record<string, unknown>, now: string, deletedAt: string | null) =>
      void updateMessage.run(text, JSON.stringify(attachments), JSON.stringify(custom), now, deletedAt, id),
    setMemberRole: (cid: string, userId: string, role: string, channelRole: string, now: string) =>
      void setMemberRole.run(role, channelRole, now, cid, userId),
    setDeleted: (id: string, at: string | null) => void setDeleted.run(at, id),
  };
}
