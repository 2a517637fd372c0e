// Flags and flag reports as the moderation queries answer them (routes/moderation-review.ts): a
// flag names its reporter (`user`; the author for an automod flag) and its target, a report is
// one flagged message with its flags counted and its review. Rows whose message is gone are
// left out: every report must carry its message.
import type { Flag, FlagReport, MessageFlagsResponse, MessageResponse, ModerationResult } from 'stream-chat';
import type { ServerContext } from '../http/context';
import type { FlagEntry, ReportRow } from '../store/flags';
import type { MessageRow } from '../store/messages';
import { Presenter } from './presenter';

export type FlagView = Omit<Flag, 'details'> & { details?: object; reviewed_at?: string; review_result?: string };
export type MessageFlagView = NonNullable<MessageFlagsResponse['flags']>[number];

export class FlagPresenter {
  private readonly presenter: Presenter;
  private readonly rows: Map<string, MessageRow>;
  private readonly messages = new Map<string, MessageResponse>();

  /** `messageIds`: every message the rows to present are about, loaded and presented together. */
  constructor(ctx: ServerContext, messageIds: string[]) {
    this.presenter = new Presenter(ctx);
    this.rows = ctx.store.messages.getMany(messageIds);
    for (const message of this.presenter.messages([...this.rows.values()])) this.messages.set(message.id, message);
  }

  flag(entry: FlagEntry): FlagView | undefined {
    const message = entry.target_kind === 'message' ? this.messages.get(entry.target_id) : undefined;
    if (entry.target_kind === 'message' && !message) return undefined;
    return {
      user: this.presenter.user(entry.user_id),
      created_by_automod: entry.automod === 1,
      ...(message ? { target_message: message } : { target_user: this.presenter.user(entry.target_id) }),
      ...this.details(entry),
      ...(entry.reviewed_at ? { review_result: entry.review_result ?? '', reviewed_at: entry.reviewed_at } : {}),
      created_at: entry.created_at,
      updated_at: entry.updated_at,
    };
  }

  messageFlag(entry: FlagEntry): MessageFlagView | undefined {
    const message = this.messages.get(entry.target_id);
    if (!message) return undefined;
    const result = entry.automod ? this.automod(entry.target_id)?.result : undefined;
    return {
      message,
      user: this.presenter.user(entry.user_id),
      created_by_automod: entry.automod === 1,
      ...(result ? { moderation_result: result } : {}),
      ...this.review(entry),
      created_at: entry.created_at,
      updated_at: entry.updated_at,
    };
  }

  report(row: ReportRow): FlagReport | undefined {
    const message = this.messages.get(row.id);
    const stored = this.rows.get(row.id);
    if (!message || !stored) return undefined;
    return {
      id: row.id,
      flags_count: row.flags_count,
      message,
      user: this.presenter.user(stored.user_id),
      first_reporter: this.presenter.user(row.first_reporter_id),
      ...(row.automod ? { details: { automod: this.automod(row.id) } } : {}),
      ...(row.reviewed_at ? { review_result: row.review_result ?? '', ...this.review(row) } : {}),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  /** Why it was flagged: automatic moderation's decision, or the reporter's reason. */
  private details(entry: FlagEntry) {
    if (entry.automod) return { details: { automod: this.automod(entry.target_id) } };
    return entry.reason ? { details: { reason: entry.reason } } : {};
  }

  private review(row: { review_result: string | null; reviewed_by: string | null; reviewed_at: string | null }) {
    if (!row.reviewed_at) return {};
    return {
      reviewed_at: row.reviewed_at,
      ...(row.reviewed_by ? { reviewed_by: this.presenter.user(row.reviewed_by) } : {}),
      ...(row.review_result === 'approved' ? { approved_at: row.reviewed_at } : {}),
      ...(row.review_result === 'rejected' ? { rejected_at: row.reviewed_at } : {}),
    };
  }

  /** What automatic moderation decided about the message (messages.moderation). */
  private automod(messageId: string) {
    const row = this.rows.get(messageId);
    if (!row?.moderation) return undefined;
    const decision = JSON.parse(row.moderation) as { blocklist?: string; action: string };
    const result: ModerationResult = {
      action: decision.action,
      message_id: row.id,
      ...(decision.blocklist ? { blocklist_name: decision.blocklist, moderated_by: 'blocklist' } : {}),
      user_bad_karma: false,
      user_karma: 0,
      created_at: row.created_at,
      updated_at: row.created_at,
    };
    return { action: decision.action, original_message_type: row.type, result };
  }
}
