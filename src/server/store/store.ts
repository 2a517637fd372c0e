// The storage facade: one database, one module per table group.
import { openDatabase } from './db';
import { createChannelStore } from './channels';
import { createMessageStore } from './messages';
import { createReadStore } from './reads';
import { createUserStore } from './users';

export function openStore(path: string) {
  const db = openDatabase(path);
  return {
    db,
    users: createUserStore(db),
    channels: createChannelStore(db),
    messages: createMessageStore(db),
    reads: createReadStore(db),
    /** Runs fn in one transaction: all its writes land together or not at all. */
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    close: () => db.close(),
  };
}

export type Store = ReturnType<typeof openStore>;
