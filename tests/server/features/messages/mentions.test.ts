// Mentions and the attachment limit on sent messages: mentioned ids become full users, the
// mentioned member's SDK counts an unread mention (channel.countUnreadMentions reads the
// message's mentioned_users and the member's own last_read), and an 11th attachment is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsers, nextEvent, startHarness, type Harness } from '../../helpers';
import { watchingPair } from '../../scenes';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob', 'carol');
});

afterAll(async () => {
  await harness?.close();
});

describe('mentions', () => {
  it('turns mentioned ids into full users and raises the mentioned member\'s unread mention count', async () => {
    const { ac, bc } = await watchingPair(harness, 'mention-watch');
    const received = nextEvent(bc, 'message.new');
    await ac.sendMessage({ text: 'hello @Bob', mentioned_users: ['bob', 'nobody'] });
    const event = await received;
    expect(event.message?.mentioned_users).toEqual([expect.objectContaining({ id: 'bob', name: 'Bob' })]);
    expect(bc.countUnreadMentions()).toBe(1);
    expect(ac.countUnreadMentions()).toBe(0);

    // A fresh session sees the same from the channel query: the message and bob's read state.
    const again = await harness.connect('bob');
    const channel = again.channel('messaging', 'mention-watch');
    await channel.watch();
    expect(channel.countUnreadMentions()).toBe(1);
    await channel.markRead();
    expect(channel.countUnreadMentions()).toBe(0);
  });

  it('tells a mentioned member who is not watching with notification.message_new carrying the mention', async () => {
    const { ac } = await watchingPair(harness, 'mention-away');
    const bobElsewhere = await harness.connect('bob');
    const notified = nextEvent(bobElsewhere, 'notification.message_new');
    await ac.sendMessage({ text: 'ping @bob', mentioned_users: ['bob'] });
    const event = await notified;
    expect(event.message?.mentioned_users?.map((u) => u.id)).toEqual(['bob']);
    expect(event.unread_count).toBeGreaterThan(0);
  });
});

describe('attachments on messages', () => {
  it('accepts 10 attachments and refuses an 11th with code 4', async () => {
    const { ac } = await watchingPair(harness, 'attach-limit');
    const attachment = (i: number) => ({ type: 'file', asset_url: `https://files.example.com/${i}.txt`, title: `${i}.txt` });
    const ten = Array.from({ length: 10 }, (_, i) => attachment(i));
    expect((await ac.sendMessage({ text: 'ten', attachments: ten })).message.attachments).toHaveLength(10);
    await expect(ac.sendMessage({ text: 'eleven', attachments: [...ten, attachment(10)] })).rejects.toThrow(
      /code 4: a message can have at most 10 attachments, not 11/,
    );
  });
});
