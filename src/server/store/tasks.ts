// Background tasks (`GET /tasks/{id}`): bulk deletes, exports, batch deactivation. A task row
// records its progress; the work itself runs off the request (infra/run-task.ts).
import type { Db } from './db';

export type TaskStatus = 'waiting' | 'running' | 'completed' | 'failed';
export type TaskRow = {
  id: string;
  type: string;
  status: TaskStatus;
  result: string | null;
  created_at: string;
  updated_at: string;
};

export function createTaskStore(db: Db) {
  const insert = db.prepare(
    "INSERT INTO tasks (id, type, status, created_at, updated_at) VALUES (?, ?, 'waiting', ?, ?)",
  );
  const update = db.prepare('UPDATE tasks SET status = ?, result = ?, updated_at = ? WHERE id = ?');
  const one = db.prepare<[string], TaskRow>('SELECT * FROM tasks WHERE id = ?');
  // Tasks interrupted by a restart cannot resume their closure: say so instead of "running" forever.
  db.prepare(
    `UPDATE tasks SET status = 'failed', result = '{"error":{"type":"interrupted","description":"the server restarted while the task ran"}}'
     WHERE status IN ('waiting', 'running')`,
  ).run();

  return {
    create: (id: string, type: string, now: string) => void insert.run(id, type, now, now),
    set: (id: string, status: TaskStatus, result: unknown, now: string) =>
      void update.run(status, result === undefined ? null : JSON.stringify(result), now, id),
    get: (id: string) => one.get(id),
  };
}
