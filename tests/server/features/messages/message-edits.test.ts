// Editing, pinning and deleting messages through the SDK, as two users who see each other's
// changes by event; and what each of them may not do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsers, nextEvent, startHarness, type Harness } from '../../helpers';
import { createAdmin, watchingPair } from '../../scenes';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob', 'carol');
  await createAdmin(harness, 'mod');
});

afterAll(async () => {
  await harness?.close();
});

describe('updating messages', () => {
  it('edits one\'s own message: message.updated reaches the other watcher with the text and message_text_updated_at', async () => {
    const { a, ac, bc } = await watchingPair(harness, 'edit-own');
    const { message } = await ac.sendMessage({ text: 'helo' });
    const seen = nextEvent(bc, 'message.updated');
    const { message: updated } = await a.updateMessage({ id: message.id, text: 'hello', color: 'red' } as never);
    const event = await seen;
    expect(updated).toMatchObject({ id: message.id, text: 'hello', color: 'red', type: 'regular' });
    expect(updated.message_text_updated_at).toEqual(expect.any(String));
    expect(event.message).toMatchObject({ id: message.id, text: 'hello' });
    expect(bc.state.messages.find((m) => m.id === message.id)?.text).toBe('hello');
  });

  it('refuses to let anyone else edit a message (403 code 17), and leaves it unchanged', async () => {
    const { b, ac } = await watchingPair(harness, 'edit-other');
    const { message } = await ac.sendMessage({ text: 'mine' });
    await expect(b.updateMessage({ id: message.id, text: 'yours now' })).rejects.toMatchObject({ code: 17, status: 403 });
    await expect(b.partialUpdateMessage(message.id, { set: { text: 'yours now' } })).rejects.toMatchObject({ code: 17 });
    expect((await b.getMessage(message.id)).message.text).toBe('mine');
  });

  it('lets an admin (update-any-message) edit another user\'s message', async () => {
    const { ac } = await watchingPair(harness, 'edit-admin');
    const { message } = await ac.sendMessage({ text: 'typo' });
    const mod = await harness.connect('mod');
    const { message: updated } = await mod.partialUpdateMessage(message.id, { set: { text: 'fixed' } });
    expect(updated.text).toBe('fixed');
  });

  it('refuses to edit a deleted message with code 4', async () => {
    const { a, ac } = await watchingPair(harness, 'edit-deleted');
    const { message } = await ac.sendMessage({ text: 'soon gone' });
    await a.deleteMessage(message.id);
    await expect(a.updateMessage({ id: message.id, text: 'back?' })).rejects.toMatchObject({ code: 4, status: 400 });
    await expect(a.partialUpdateMessage(message.id, { set: { text: 'back?' } })).rejects.toMatchObject({ code: 4 });
  });

  it('partial update sets and unsets custom fields, keeping the text', async () => {
    const { a, ac } = await watchingPair(harness, 'partial');
    const { message } = await ac.sendMessage({ text: 'tagged', tag: 'x', mood: 'ok' } as never);
    const { message: updated } = await a.partialUpdateMessage(message.id, { set: { tag: 'y' } as never, unset: ['mood'] as never });
    expect(updated).toMatchObject({ text: 'tagged', tag: 'y' });
    expect(updated).not.toHaveProperty('mood');
    expect(updated.message_text_updated_at).toBeUndefined();
  });

  it('refuses partial updates of reserved fields with code 4', async () => {
    const { a, ac } = await watchingPair(harness, 'reserved');
    const { message } = await ac.sendMessage({ text: 'x' });
    await expect(a.partialUpdateMessage(message.id, { set: { user_id: 'bob' } as never })).rejects.toMatchObject({ code: 4 });
    await expect(a.partialUpdateMessage(message.id, { set: { created_at: '2020-01-01' } as never })).rejects.toMatchObject({ code: 4 });
  });
});

describe('pinning', () => {
  it('pins and unpins by partial update: both watchers\' pinned lists follow and channel responses carry pinned_messages', async () => {
    const { a, b, ac, bc } = await watchingPair(harness, 'pins');
    const { message } = await ac.sendMessage({ text: 'important' });
    const pinnedSeen = nextEvent(ac, 'message.updated', (e) => e.message?.pinned === true);
    const { message: pinned } = await b.pinMessage(message.id);
    await pinnedSeen;
    expect(pinned).toMatchObject({ pinned: true, pinned_by: expect.objectContaining({ id: 'bob' }), pin_expires: null });
    expect(pinned.pinned_at).toEqual(expect.any(String));
    expect(ac.state.pinnedMessages.map((m) => m.id)).toEqual([message.id]);
    expect((await bc.query({})).pinned_messages.map((m) => m.id)).toEqual([message.id]);

    const unpinnedSeen = nextEvent(bc, 'message.updated', (e) => e.message?.pinned === false);
    await a.unpinMessage(message.id);
    await unpinnedSeen;
    expect(bc.state.pinnedMessages).toEqual([]);
    expect((await ac.query({})).pinned_messages).toEqual([]);
  });

  it('refuses pinning without the pin-message capability (a livestream viewer) with code 17', async () => {
    const owner = await harness.connect('alice');
    const stream = owner.channel('livestream', 'pins-live');
    await stream.watch();
    const { message } = await stream.sendMessage({ text: 'live' });
    const viewer = await harness.connect('carol');
    await viewer.channel('livestream', 'pins-live').watch();
    await expect(viewer.pinMessage(message.id)).rejects.toMatchObject({ code: 17 });
  });

  it('ends a pin at pin_expires: message.updated with pinned false, and the pinned list empties', async () => {
    const { a, ac, bc } = await watchingPair(harness, 'pin-expiry');
    const { message } = await ac.sendMessage({ text: 'for a second' });
    const pinned = nextEvent(bc, 'message.updated', (e) => e.message?.pinned === true);
    await a.pinMessage(message.id, 1);
    expect((await pinned).message?.pin_expires).toEqual(expect.any(String));
    expect(bc.state.pinnedMessages).toHaveLength(1);
    const expired = await nextEvent(bc, 'message.updated', (e) => e.message?.id === message.id && e.message.pinned === false, 4000);
    expect(expired.message?.pin_expires).toBeNull();
    expect(bc.state.pinnedMessages).toHaveLength(0);
    expect((await ac.query({})).pinned_messages).toEqual([]);
  });
});

describe('deleting', () => {
  it('soft-deletes one\'s own message: message.deleted with type deleted and deleted_at, hard_delete false', async () => {
    const { a, ac, bc } = await watchingPair(harness, 'soft');
    const { message } = await ac.sendMessage({ text: 'oops' });
    const seen = nextEvent(bc, 'message.deleted');
    const { message: deleted } = await a.deleteMessage(message.id);
    const event = await seen;
    expect(deleted).toMatchObject({ id: message.id, type: 'deleted', deleted_at: expect.any(String) });
    expect(event.hard_delete).toBe(false);
    expect(bc.state.messages.find((m) => m.id === message.id)?.type).toBe('deleted');
    expect((await a.getMessage(message.id)).message.type).toBe('deleted');
  });

  it('refuses deleting another user\'s message (17) and hard deletes by a member without delete-any-message (17)', async () => {
    const { a, b, ac } = await watchingPair(harness, 'delete-refused');
    const { message } = await ac.sendMessage({ text: 'keep' });
    await expect(b.deleteMessage(message.id)).rejects.toMatchObject({ code: 17 });
    await expect(a.deleteMessage(message.id, { hardDelete: true })).rejects.toMatchObject({ code: 17 });
    expect((await a.getMessage(message.id)).message.type).toBe('regular');
  });

  it('hard-deletes (admin or server): content stripped, message.deleted with hard_delete, no undelete', async () => {
    const { ac, bc } = await watchingPair(harness, 'hard');
    const { message } = await ac.sendMessage({ text: 'secret', attachments: [{ type: 'file', asset_url: 'https://x/y' }] });
    await bc.sendReaction(message.id, { type: 'like' });
    const seen = nextEvent(bc, 'message.deleted');
    const mod = await harness.connect('mod');
    const { message: deleted } = await mod.deleteMessage(message.id, { hardDelete: true });
    expect((await seen).hard_delete).toBe(true);
    expect(deleted).toMatchObject({ type: 'deleted', text: '', attachments: [], latest_reactions: [], reaction_groups: null });
    expect(bc.state.messages.find((m) => m.id === message.id)).toBeUndefined();
    await expect(harness.admin.undeleteMessage(message.id, 'mod')).rejects.toMatchObject({ code: 4 });
  });

  it('undeletes a soft-deleted message server-side: message.undeleted restores its type and text', async () => {
    const { a, ac, bc } = await watchingPair(harness, 'undelete');
    const { message } = await ac.sendMessage({ text: 'come back' });
    await a.deleteMessage(message.id);
    await expect(a.undeleteMessage(message.id, 'alice')).rejects.toMatchObject({ code: 17 });
    const seen = nextEvent(bc, 'message.undeleted');
    const { message: restored } = await harness.admin.undeleteMessage(message.id, 'mod');
    expect(restored).toMatchObject({ type: 'regular', text: 'come back' });
    expect(restored.deleted_at).toBeUndefined();
    expect((await seen).message?.type).toBe('regular');
    await expect(harness.admin.undeleteMessage(message.id, 'mod')).rejects.toMatchObject({ code: 4 });
  });
});

describe('reading messages', () => {
  it('gets one message, several by id (others\' channels left out) and 404 code 16 for an unknown id', async () => {
    const { a, ac } = await watchingPair(harness, 'reads');
    const first = (await ac.sendMessage({ text: 'one' })).message;
    const second = (await ac.sendMessage({ text: 'two' })).message;
    const elsewhere = await a.channel('messaging', 'reads-other', { members: ['alice'] });
    await elsewhere.watch();
    const foreign = (await elsewhere.sendMessage({ text: 'not here' })).message;
    expect((await a.getMessage(first.id)).message.text).toBe('one');
    const { messages } = await ac.getMessagesById([second.id, foreign.id, first.id]);
    expect(messages.map((m) => m.text)).toEqual(['two', 'one']);
    await expect(a.getMessage('no-such-message')).rejects.toMatchObject({ code: 16, status: 404 });
  });

  it('refuses a message in a channel the reader cannot read (17)', async () => {
    const { ac } = await watchingPair(harness, 'reads-private');
    const { message } = await ac.sendMessage({ text: 'members only' });
    const carol = await harness.connect('carol');
    await expect(carol.getMessage(message.id)).rejects.toMatchObject({ code: 17 });
  });
});
