// A task as `GET /tasks/{id}` (getTask) and `GET /export_channels/{id}` (getExportChannelStatus)
// show it: its status and times, then its result once completed or its error once failed.
import type { TaskStatus } from 'stream-chat';
import { isObject, type JsonObject } from '../http/input';
import type { TaskRow } from '../store/tasks';

export function presentTask(row: TaskRow): TaskStatus {
  const stored = row.result ? (JSON.parse(row.result) as JsonObject) : undefined;
  const failed = row.status === 'failed' && isObject(stored?.error);
  return {
    task_id: row.id,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(failed ? { error: stored?.error as TaskStatus['error'] } : stored ? { result: stored } : {}),
  };
}
