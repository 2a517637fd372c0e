// Stored rows → the SDK's response shapes. A Presenter lives for one response (or one event
// fan-out); its user cache (users.ts) is shared with the presenters it makes for other viewers.
import type {
  ChannelMemberResponse,
  MessageLabel,
  MessageResponse,
  MessageResponseBase,
  OwnUserResponse,
  ReadResponse,
  UserResponse,
} from 'stream-chat';
import { UserPresenter } from './users';
import { composerFields } from './composer-fields';
import type { ServerContext } from '../http/context';
import { messageExtras } from './message-extras';
import { activeMutes } from './own-user';
import { presentDevice, presentPushPreferences } from './push';
import type { BanRow } from '../store/bans';
import type { MemberRow } from '../store/channels';
import type { MessageRow } from '../store/messages';
import type { ReadRow } from '../store/reads';
import type { UserRow } from '../store/users';

export class Presenter extends UserPresenter {
  /**
   * `viewerId` is who the messages are presented to: their own_reactions and reminder are
   * included. Without one (events shared by every receiver) those stay empty.
   */
  constructor(
    ctx: ServerContext,
    readonly viewerId: string | null = null,
    users = new Map<string, UserResponse>(),
  ) {
    super(ctx, users);
  }

  /** The same presenter (sharing its user cache) for another viewer. */
  forViewer(viewerId: string | null): Presenter {
    return viewerId === this.viewerId ? this : new Presenter(this.ctx, viewerId, this.users);
  }

  /** `me` in health.check: the user plus mutes, devices, push preferences and unread totals. */
  ownUser(row: UserRow): OwnUserResponse {
    const unread = this.ctx.store.reads.summary(row.id);
    // The user's own app-wide ban carries its end, so their client can say until when.
    const ban = this.ctx.store.bans.global(row.id);
    return {
      ...this.fromRow(row),
      ...(ban?.shadow === 0 && ban.expires ? { ban_expires: ban.expires } : {}),
      online: true,
      invisible: false,
      devices: this.ctx.store.devices.ofUser(row.id).map(presentDevice),
      push_preferences: presentPushPreferences(this.ctx.store.pushPreferences.get(row.id, '')),
      ...activeMutes(this.ctx, this, row.id),
      blocked_user_ids: this.ctx.store.blocks.blockedBy(row.id).map((block) => block.blocked_user_id),
      total_unread_count: unread.total,
      unread_count: unread.total,
      unread_channels: unread.channels,
      unread_threads: this.ctx.store.threads.unreadCount(row.id),
    };
  }

  /** `justStored`: the rows were stored in this same call, so nothing refers to them yet (no reactions). */
  messages(rows: MessageRow[], justStored = false): MessageResponse[] {
    const quoted = this.ctx.store.messages.getMany(
      rows.flatMap((row) => (row.quoted_message_id ? [row.quoted_message_id] : [])),
    );
    const all = [...rows, ...quoted.values()];
    this.preloadUsers(all.flatMap((row) => [row.user_id, ...mentionedIds(row)]));
    const extras = messageExtras(this, this.ctx.store, rows, this.viewerId, justStored);
    const composer = composerFields(this, this.ctx.store, rows, this.viewerId);
    return rows.map((row) => {
      const quote = row.quoted_message_id ? quoted.get(row.quoted_message_id) : undefined;
      const message = { ...this.messageBase(row), ...extras.get(row.id), ...composer.get(row.id) };
      return quote ? { ...message, quoted_message: this.messageBase(quote) } : message;
    });
  }

  private messageBase(row: MessageRow): MessageResponseBase {
    const custom = JSON.parse(row.custom) as Record<string, unknown>;
    return {
      ...custom,
      id: row.id,
      cid: row.cid,
      // A soft-deleted message keeps its stored type, so undelete can restore it.
      type: (row.deleted_at ? 'deleted' : row.type) as MessageLabel,
      text: row.text,
      html: textToHtml(row.text),
      user: this.user(row.user_id),
      attachments: JSON.parse(row.attachments) as MessageResponseBase['attachments'],
      mentioned_users: mentionedIds(row).map((id) => this.user(id)),
      latest_reactions: [],
      own_reactions: [],
      reaction_counts: {},
      reaction_scores: {},
      reaction_groups: null,
      reply_count: row.reply_count,
      deleted_reply_count: 0,
      silent: custom.silent === true,
      shadowed: row.shadowed === 1,
      pinned: false,
      pinned_at: null,
      pinned_by: null,
      pin_expires: null,
      restricted_visibility: row.restricted_visibility ? (JSON.parse(row.restricted_visibility) as string[]) : [],
      ...(row.parent_id ? { parent_id: row.parent_id, show_in_channel: row.show_in_channel === 1 } : {}),
      ...(row.quoted_message_id ? { quoted_message_id: row.quoted_message_id } : {}),
      created_at: row.created_at,
      updated_at: row.updated_at,
      ...(row.deleted_at ? { deleted_at: row.deleted_at } : {}),
      // Translations (`POST /messages/{id}/translate`): {"<lang>_text": …, "language": source}.
      ...(row.i18n ? { i18n: JSON.parse(row.i18n) as MessageResponseBase['i18n'] } : {}),
    };
  }

  /** Channel bans looked up ahead for a page of members (`cid user` → the ban in force, or null). */
  private readonly memberBans = new Map<string, BanRow | null>();

  /** Loads the channel bans of a page of members in one query, for member() to present them. */
  preloadMembers(rows: MemberRow[]): void {
    const byChannel = new Map<string, string[]>();
    for (const row of rows) {
      const userIds = byChannel.get(row.cid);
      if (userIds) userIds.push(row.user_id);
      else byChannel.set(row.cid, [row.user_id]);
    }
    for (const [cid, userIds] of byChannel) {
      const bans = this.ctx.store.bans.inChannelOf(cid, userIds);
      for (const userId of userIds) this.memberBans.set(`${cid} ${userId}`, bans.get(userId) ?? null);
    }
    this.preloadUsers(rows.map((row) => row.user_id));
  }

  member(row: MemberRow): ChannelMemberResponse {
    // The channel's own ban (an app-wide ban shows on the user). A shadow ban is never shown to
    // the chat: query_banned_users tells the site's server and moderators about it.
    const preloaded = this.memberBans.get(`${row.cid} ${row.user_id}`);
    const ban = preloaded === undefined ? this.ctx.store.bans.inChannel(row.cid, row.user_id) : (preloaded ?? undefined);
    return {
      ...(JSON.parse(row.custom || '{}') as Record<string, unknown>),
      user_id: row.user_id,
      user: this.user(row.user_id),
      role: row.role,
      channel_role: row.channel_role,
      is_moderator: row.channel_role === 'channel_moderator',
      status: row.invited ? (row.invite_accepted_at ? 'member' : row.invite_rejected_at ? 'rejected' : 'pending') : 'member',
      ...(row.invited ? { invited: true } : {}),
      ...(row.invite_accepted_at ? { invite_accepted_at: row.invite_accepted_at } : {}),
      ...(row.invite_rejected_at ? { invite_rejected_at: row.invite_rejected_at } : {}),
      banned: ban?.shadow === 0,
      shadow_banned: false,
      ...(ban?.shadow === 0 && ban.expires ? { ban_expires: ban.expires } : {}),
      notifications_muted: false,
      pinned_at: row.pinned_at,
      archived_at: row.archived_at,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  read(row: ReadRow): ReadResponse {
    return {
      user: this.user(row.user_id),
      last_read: row.last_read,
      unread_messages: row.unread_messages,
      ...(row.last_read_message_id ? { last_read_message_id: row.last_read_message_id } : {}),
    };
  }
}


function mentionedIds(row: MessageRow): string[] {
  return JSON.parse(row.mentioned_user_ids) as string[];
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** The provider renders markdown into `html`; plain escaped paragraphs are enough offline. */
function textToHtml(text: string): string {
  if (!text) return '';
  const escaped = text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
  return `<p>${escaped.replace(/\n/g, '<br/>')}</p>\n`;
}
