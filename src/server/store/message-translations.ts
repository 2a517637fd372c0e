// A message's translations, the provider's `i18n` object (`{"<lang>_text": …, "language": source}`),
// kept as JSON in messages.i18n. Writing one is not an edit: updated_at stays, and no history is kept.
import type { Db } from './db';
import type { MessageRow } from './messages';

export type Translations = Record<string, string>;

export function createMessageTranslationStore(db: Db) {
  const write = db.prepare('UPDATE messages SET i18n = ? WHERE id = ?');
  const byId = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE id = ?');

  return {
    /** The stored translations of a message (empty when none). */
    of(row: MessageRow): Translations {
      return row.i18n ? (JSON.parse(row.i18n) as Translations) : {};
    },
    set(messageId: string, i18n: Translations): MessageRow | undefined {
      write.run(JSON.stringify(i18n), messageId);
      return byId.get(messageId);
    },
  };
}
