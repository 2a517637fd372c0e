// Demo data for a first start: four users and `messaging:general` with a short conversation
// spread over the last hour, so the demo shows a living channel straight away.
import type { Store } from './store';

export const DEMO_USERS = [
  { id: 'alice', name: 'Alice Johnson' },
  { id: 'bob', name: 'Bob Smith' },
  { id: 'carol', name: 'Carol Diaz' },
  { id: 'dave', name: 'Dave Okafor' },
] as const;

/** The support agent: answers every visitor's private conversation from the inbox (demo/agent.html). */
export const DEMO_AGENT = { id: 'sam', name: 'Sam (support)' } as const;

const DEMO_CHANNEL = { type: 'messaging', id: 'general', name: 'General' } as const;

const CONVERSATION: { user: string; minutesAgo: number; text: string }[] = [
  { user: 'alice', minutesAgo: 56, text: 'Welcome to #general, everyone! 👋' },
  { user: 'bob', minutesAgo: 51, text: 'Hi Alice! Glad to be here.' },
  { user: 'carol', minutesAgo: 38, text: 'This chat runs entirely on the local backend: no account, no network.' },
  { user: 'dave', minutesAgo: 24, text: 'Nice. Typing indicators and read receipts work offline too.' },
  { user: 'alice', minutesAgo: 9, text: 'Try opening the demo in two windows as different users and say hello.' },
  { user: 'bob', minutesAgo: 3, text: 'Hello from the other window! 😄' },
];

/** Seeds an empty database; returns false (and changes nothing) if any user exists. */
export function seedDemoData(store: Store, now = Date.now()): boolean {
  if (store.users.count() > 0) return false;
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
  const cid = `${DEMO_CHANNEL.type}:${DEMO_CHANNEL.id}`;
  const memberIds = DEMO_USERS.map((user) => user.id);
  const createdAt = at(60);
  store.transaction(() => {
    for (const user of DEMO_USERS) store.users.upsert({ id: user.id, name: user.name });
    store.channels.create({
      type: DEMO_CHANNEL.type,
      id: DEMO_CHANNEL.id,
      name: DEMO_CHANNEL.name,
      custom: {},
      createdById: 'alice',
      now: createdAt,
    });
    store.channels.addMembers(cid, ['alice'], 'owner', createdAt);
    store.channels.addMembers(cid, memberIds.slice(1), 'member', createdAt);
    store.reads.start(cid, memberIds, createdAt);
    CONVERSATION.forEach((line, index) => {
      store.messages.add({
        id: `seed-general-${index + 1}`,
        cid,
        userId: line.user,
        type: 'regular',
        text: line.text,
        parentId: null,
        showInChannel: false,
        quotedMessageId: null,
        mentionedUserIds: [],
        attachments: [],
        custom: {},
        now: at(line.minutesAgo),
      });
    });
    const last = CONVERSATION.length;
    const lastAt = at(CONVERSATION[last - 1]?.minutesAgo ?? 0);
    store.channels.setLastMessageAt(cid, lastAt);
    // Everyone has read the conversation so far: the demo starts with no unread badge.
    for (const userId of memberIds) store.reads.markRead(cid, userId, lastAt, `seed-general-${last}`);
  });
  return true;
}
