// Drafts through the SDK: saved per channel and per thread, restored from the channel query and
// on another device by draft.updated / draft.deleted (which go to the owner's connections only),
// queried, used up by sending, and checked like a message.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectEvents, createUsers, nextEvent, startHarness, type Harness } from '../../helpers';
import { sleep, watchingPair } from '../../scenes';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob');
});

afterAll(async () => {
  await harness?.close();
});

describe('drafts', () => {
  it('saves a draft: draft.updated to every connection of its owner and none of bob\'s; restored by the channel query', async () => {
    const { ac, b, bc } = await watchingPair(harness, 'draft-save');
    const { message: quoted } = await bc.sendMessage({ text: 'quote me' });
    const otherDevice = await harness.connect('alice');
    const bobEvents = collectEvents(b, 'draft.updated');
    const onOtherDevice = nextEvent(otherDevice, 'draft.updated');
    const onThisDevice = nextEvent(ac, 'draft.updated');
    const { draft } = await ac.createDraft({ id: 'draft-1', text: 'half a thought', quoted_message_id: quoted.id, mentioned_users: ['bob'] });
    expect(draft).toMatchObject({
      channel_cid: 'messaging:draft-save',
      message: { id: 'draft-1', text: 'half a thought', mentioned_users: ['bob'], quoted_message_id: quoted.id },
      quoted_message: { id: quoted.id, text: 'quote me' },
    });
    expect((await onOtherDevice).draft?.message.text).toBe('half a thought');
    await onThisDevice;
    await sleep(50);
    expect(bobEvents.events).toEqual([]);

    const state = await otherDevice.channel('messaging', 'draft-save').query({});
    expect(state.draft?.message.text).toBe('half a thought');
    expect((await bc.query({})).draft).toBeUndefined();
    expect((await ac.getDraft()).draft.message.id).toBe('draft-1');
  });

  it('keeps a thread\'s draft apart from the channel\'s, and deletes one with draft.deleted', async () => {
    const { ac } = await watchingPair(harness, 'draft-thread');
    const { message: parent } = await ac.sendMessage({ text: 'parent' });
    await ac.createDraft({ text: 'channel draft' });
    const { draft } = await ac.createDraft({ text: 'thread draft', parent_id: parent.id });
    expect(draft).toMatchObject({ parent_id: parent.id, parent_message: { id: parent.id } });
    expect((await ac.getDraft({ parent_id: parent.id })).draft.message.text).toBe('thread draft');
    expect((await ac.getDraft()).draft.message.text).toBe('channel draft');

    const deleted = nextEvent(ac, 'draft.deleted');
    await ac.deleteDraft({ parent_id: parent.id });
    expect((await deleted).draft).toMatchObject({ channel_cid: 'messaging:draft-thread', parent_id: parent.id });
    await expect(ac.getDraft({ parent_id: parent.id })).rejects.toMatchObject({ code: 16 });
    expect((await ac.getDraft()).draft.message.text).toBe('channel draft');
    // Deleting a draft that is gone is not an error (the composer does so after sending).
    await ac.deleteDraft({ parent_id: parent.id });
  });

  it('queries the user\'s drafts with their channels, newest first, filtered by channel', async () => {
    const one = await watchingPair(harness, 'draft-q1');
    const two = await watchingPair(harness, 'draft-q2');
    await one.ac.createDraft({ text: 'first' });
    await sleep(5);
    await two.ac.createDraft({ text: 'second' });
    const { drafts } = await one.a.queryDrafts({ filter: { channel_cid: { $in: ['messaging:draft-q1', 'messaging:draft-q2'] } } });
    expect(drafts.map((d) => d.message.text)).toEqual(['second', 'first']);
    expect(drafts[0]?.channel).toMatchObject({ cid: 'messaging:draft-q2', config: expect.any(Object) });
    const filtered = await one.a.queryDrafts({ filter: { channel_cid: 'messaging:draft-q1' } });
    expect(filtered.drafts.map((d) => d.message.text)).toEqual(['first']);
    expect((await one.b.queryDrafts({ filter: { channel_cid: 'messaging:draft-q1' } })).drafts).toEqual([]);
  });

  it('uses up the composer\'s draft when a message is sent there (draft.deleted)', async () => {
    const { ac } = await watchingPair(harness, 'draft-send');
    await ac.createDraft({ text: 'about to send' });
    const deleted = nextEvent(ac, 'draft.deleted');
    await ac.sendMessage({ text: 'about to send' });
    expect((await deleted).draft?.channel_cid).toBe('messaging:draft-send');
    await expect(ac.getDraft()).rejects.toMatchObject({ code: 16 });
  });

  it('follows the MessageComposer on another device: its draft appears there and goes away there', async () => {
    const { ac } = await watchingPair(harness, 'draft-composer');
    const otherDevice = await harness.connect('alice');
    const there = otherDevice.channel('messaging', 'draft-composer');
    await there.watch();
    for (const composer of [ac.messageComposer, there.messageComposer]) composer.updateConfig({ drafts: { enabled: true } });
    const unsubscribe = there.messageComposer.registerSubscriptions();
    try {
      ac.messageComposer.textComposer.setText('typed on my phone');
      await ac.messageComposer.createDraft();
      await vi.waitFor(() => expect(there.messageComposer.textComposer.text).toBe('typed on my phone'));
      await ac.messageComposer.deleteDraft();
      await vi.waitFor(() => expect(there.messageComposer.textComposer.text).toBe(''));
    } finally {
      unsubscribe();
    }
  });
});

describe('drafts refused', () => {
  it('refuses a draft over the maximum length, with 11 attachments, or quoting another channel\'s message', async () => {
    const { ac } = await watchingPair(harness, 'draft-bad');
    const elsewhere = await watchingPair(harness, 'draft-elsewhere');
    const { message } = await elsewhere.ac.sendMessage({ text: 'elsewhere' });
    await expect(ac.createDraft({ text: 'x'.repeat(5001) })).rejects.toThrow(/code 4: message.text is longer than 5000/);
    const attachments = Array.from({ length: 11 }, (_, i) => ({ type: 'file', asset_url: `https://example.com/${i}` }));
    await expect(ac.createDraft({ text: 'files', attachments })).rejects.toThrow(/at most 10 attachments, not 11/);
    await expect(ac.createDraft({ text: 'quote', quoted_message_id: message.id })).rejects.toThrow(/does not exist in this channel/);
  });
});

describe('drafts from the site owner\'s server', () => {
  it('creates a draft for the user named in its message, and reads, queries and deletes it by a user_id parameter', async () => {
    const { ac } = await watchingPair(harness, 'draft-server');
    const owner = harness.admin.channel('messaging', 'draft-server');
    const seen = nextEvent(ac, 'draft.updated');
    const { draft } = await owner.createDraft({ text: 'written by the server', user_id: 'alice' } as never);
    expect(draft).toMatchObject({ channel_cid: 'messaging:draft-server', message: { text: 'written by the server' } });
    expect((await seen).draft?.message?.text).toBe('written by the server');

    const url = `${harness.url}/channels/messaging/draft-server/draft`;
    const read = await harness.admin.get<{ draft: { message: { text: string } } }>(url, { user_id: 'alice' });
    expect(read.draft.message.text).toBe('written by the server');
    const { drafts } = await harness.admin.queryDrafts({ user_id: 'alice', filter: { channel_cid: 'messaging:draft-server' } });
    expect(drafts.map((d) => d.message.text)).toEqual(['written by the server']);
    await harness.admin.delete(url, { user_id: 'alice' });
    await expect(harness.admin.get(url, { user_id: 'alice' })).rejects.toMatchObject({ code: 16 });
    // Without a user, the server is told what is missing.
    await expect(owner.createDraft({ text: 'whose?' })).rejects.toThrow(/user_id/);
  });
});
