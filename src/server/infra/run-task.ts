// Slow work as a task: the request answers at once with `task_id`, the work runs after it, and
// `GET /tasks/{id}` reports waiting → running → completed (with its result) or failed (with the
// error). Work that walks many rows calls `breathe()` between chunks so requests keep flowing.
import { randomUUID } from 'node:crypto';
import type { ServerContext } from '../http/context';
import { ApiError } from '../http/errors';

export type TaskWork = (breathe: () => Promise<void>) => unknown;

const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

export function startTask(ctx: ServerContext, type: string, work: TaskWork): string {
  const id = randomUUID();
  ctx.store.tasks.create(id, type, new Date().toISOString());
  const running = (async () => {
    await breathe();
    ctx.store.tasks.set(id, 'running', undefined, new Date().toISOString());
    try {
      const result = await work(breathe);
      ctx.store.tasks.set(id, 'completed', result ?? {}, new Date().toISOString());
    } catch (error) {
      const description = error instanceof ApiError ? error.message : 'the task failed';
      if (!(error instanceof ApiError)) ctx.log(`task ${type} ${id} failed`, error);
      ctx.store.tasks.set(id, 'failed', { error: { type, description } }, new Date().toISOString());
    }
  })();
  ctx.tasks.add(running);
  void running.finally(() => ctx.tasks.delete(running));
  return id;
}
