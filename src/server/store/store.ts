// The storage facade: one database, one module per table group.
import { openDatabase } from './db';
import { createAccessControlStore } from './access-control';
import { createAppSettingStore } from './app-settings';
import { createBanStore } from './bans';
import { createBlockStore } from './blocks';
import { createBlocklistStore } from './blocklists';
import { createChannelStore } from './channels';
import { createChannelAdminStore } from './channel-admin';
import { createChannelTypeStore } from './channel-types';
import { createCommandStore } from './commands';
import { createDeviceStore } from './devices';
import { createDraftStore } from './drafts';
import { createEventLogStore } from './event-log';
import { createFileStore } from './files';
import { createFlagStore } from './flags';
import { createLocationStore } from './locations';
import { createMembershipStore } from './memberships';
import { createMessageEditStore } from './message-edits';
import { createMessageQueryStore } from './message-queries';
import { createMessageStore } from './messages';
import { createMuteStore } from './mutes';
import { createPollStore } from './polls';
import { createPushPreferenceStore } from './push-preferences';
import { createPushProviderStore } from './push-providers';
import { createReactionStore } from './reactions';
import { createReadStore } from './reads';
import { createReminderStore } from './reminders';
import { createSearchStore } from './search';
import { createTaskStore } from './tasks';
import { createThreadStore } from './threads';
import { createUnreadCountStore } from './unread-counts';
import { createUserStore } from './users';
import { createOutboxStore } from './outbox';
import { createCampaignStore } from './campaigns';
import { createSegmentStore } from './segments';
import { createMessageHistoryStore } from './message-history';
import { createMessageTranslationStore } from './message-translations';
import { createPendingMessageStore } from './pending-messages';
import { createImportStore } from './imports';

export function openStore(path: string) {
  const db = openDatabase(path);
  return {
    db,
    users: createUserStore(db),
    channels: createChannelStore(db),
    messages: createMessageStore(db),
    reads: createReadStore(db),
    files: createFileStore(db),
    polls: createPollStore(db),
    drafts: createDraftStore(db),
    locations: createLocationStore(db),
    commands: createCommandStore(db),
    bans: createBanStore(db),
    memberships: createMembershipStore(db),
    messageEdits: createMessageEditStore(db),
    messageQueries: createMessageQueryStore(db),
    reactions: createReactionStore(db),
    threads: createThreadStore(db),
    mutes: createMuteStore(db),
    flags: createFlagStore(db),
    reminders: createReminderStore(db),
    search: createSearchStore(db),
    channelTypes: createChannelTypeStore(db),
    channelAdmin: createChannelAdminStore(db),
    accessControl: createAccessControlStore(db),
    appSettings: createAppSettingStore(db),
    tasks: createTaskStore(db),
    blocks: createBlockStore(db),
    blocklists: createBlocklistStore(db),
    webhookOutbox: createOutboxStore(db, 'webhook_outbox'),
    pushOutbox: createOutboxStore(db, 'push_outbox'),
    eventLog: createEventLogStore(db),
    devices: createDeviceStore(db),
    pushPreferences: createPushPreferenceStore(db),
    pushProviders: createPushProviderStore(db),
    unreadCounts: createUnreadCountStore(db),
    segments: createSegmentStore(db),
    campaigns: createCampaignStore(db),
    messageHistory: createMessageHistoryStore(db),
    messageTranslations: createMessageTranslationStore(db),
    pendingMessages: createPendingMessageStore(db),
    imports: createImportStore(db),
    /** Runs fn in one transaction: all its writes land together or not at all. */
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    close: () => db.close(),
  };
}

export type Store = ReturnType<typeof openStore>;
