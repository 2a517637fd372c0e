// The files table: one row per upload, naming the bytes stored on disk under
// `<uploads dir>/<id>/<name>`. The random id is both the folder and the unguessable part of the
// URL, so a file is found again from its URL alone (to serve it, delete it, or fill in an image
// attachment's dimensions when a message carries it).
import type { Db } from './db';

export type FileRow = {
  id: string;
  name: string;
  /** Which endpoint received it: 'file' or 'image'. */
  kind: string;
  /** null for app-level uploads (`/uploads/file|image`). */
  cid: string | null;
  user_id: string | null;
  mime_type: string;
  size: number;
  width: number | null;
  height: number | null;
  created_at: string;
};

export function createFileStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO files (id, name, kind, cid, user_id, mime_type, size, width, height, created_at)
     VALUES (@id, @name, @kind, @cid, @user_id, @mime_type, @size, @width, @height, @created_at)`,
  );
  const byId = db.prepare<[string], FileRow>('SELECT * FROM files WHERE id = ?');
  const remove = db.prepare('DELETE FROM files WHERE id = ?');

  return {
    add: (row: FileRow) => void insert.run(row),
    get: (id: string) => byId.get(id),
    remove: (id: string) => remove.run(id).changes > 0,
  };
}
