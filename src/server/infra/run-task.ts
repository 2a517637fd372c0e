// Slow work as a task: the request answers at once with `task_id`, the work runs after it, and
// `GET /tasks/{id}` reports waiting → running → completed (with its result) or failed (with the
// error). Work that walks many rows calls `breathe()` between chunks so requests keep flowing.
// A task over many things (users, channels) reports each one in its result under its id, as the
// provider does: `{status: 'ok'}`, or `{status: 'error', error}` when that one failed and the
// others went on.
import { randomUUID } from 'node:crypto';
import type { ServerContext } from '../http/context';
import { ApiError } from '../http/errors';
import type { TaskRow } from '../store/tasks';

export type TaskWork = (breathe: () => Promise<void>) => unknown;

/** How one of the things a task works through fared. */
export type ItemOutcome = { status: 'ok' } | { status: 'error'; error: string };

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

/**
 * Runs one item of a task: a refusal (an ApiError) or a fault becomes that item's error, and the
 * task goes on with the next. Work that returns a sentence instead of finishing says why it was
 * passed over.
 */
export async function itemOutcome(ctx: ServerContext, what: string, work: () => unknown): Promise<ItemOutcome> {
  try {
    const skipped = await work();
    return typeof skipped === 'string' ? { status: 'error', error: skipped } : { status: 'ok' };
  } catch (error) {
    if (error instanceof ApiError) return { status: 'error', error: error.message };
    ctx.log(`${what} failed`, error);
    return { status: 'error', error: 'internal error' };
  }
}

/** The task `id` (of `type`, when given), or the provider's 404 for one it cannot find. */
export function existingTask(ctx: ServerContext, id: string, type?: string): TaskRow {
  const row = ctx.store.tasks.get(id);
  if (!row || (type !== undefined && row.type !== type)) throw ApiError.notFound(`Can't find task with id ${id}`);
  return row;
}
