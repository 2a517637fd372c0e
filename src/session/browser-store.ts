import { createStore, type UseStore } from 'idb-keyval';

let database: UseStore | undefined;

/**
 * Runs `use` on this browser's store for the widget (IndexedDB, opened on first use, so a visitor
 * who never opens the chat gets no database). Without IndexedDB (a private window, a blocked
 * origin) it does nothing and resolves undefined: what would be kept lives in memory only.
 */
export async function kept<T>(use: (store: UseStore) => Promise<T>): Promise<T | undefined> {
  try {
    return await use((database ??= createStore('chat-widget', 'kept')));
  } catch {
    return undefined;
  }
}
