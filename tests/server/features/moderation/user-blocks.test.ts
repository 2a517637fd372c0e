// Blocking users through the real SDK: what blockUser / getBlockedUsers / unBlockUser answer,
// `me.blocked_user_ids` on connect, and what a block does as the blocker sees it: the blocked
// user's messages gone from history, replies, search and live events, and no direct messages
// either way until unblocked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, StreamChat } from 'stream-chat';
import { collectEvents, createUsers, nextEvent, signToken, startHarness, type Harness } from '../../helpers';

let harness: Harness;
let amy: StreamChat;
let ben: StreamChat;
let room: Channel;
let benRoom: Channel;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'amy', 'ben', 'cal');
  amy = await harness.connect('amy');
  ben = await harness.connect('ben');
  room = amy.channel('messaging', 'block-room', { members: ['amy', 'ben', 'cal'] });
  await room.watch();
  benRoom = ben.channel('messaging', 'block-room');
  await benRoom.watch();
});

afterAll(async () => {
  await harness?.close();
});

const texts = async (channel: Channel) => (await channel.query({ messages: { limit: 50 } })).messages.map((m) => m.text);

describe('blocking users', () => {
  it('answers blockUser, lists the block in getBlockedUsers and in me.blocked_user_ids', async () => {
    const blocked = await amy.blockUser('ben');
    expect(blocked).toMatchObject({ blocked_by_user_id: 'amy', blocked_user_id: 'ben', blocked_at: expect.any(String) });
    const { blocks } = await amy.getBlockedUsers();
    expect(blocks).toEqual([
      expect.objectContaining({
        user_id: 'amy',
        user: expect.objectContaining({ id: 'amy' }),
        blocked_user_id: 'ben',
        blocked_user: expect.objectContaining({ id: 'ben', name: 'Ben' }),
        created_at: blocked.blocked_at,
      }),
    ]);
    expect((await harness.admin.getBlockedUsers('amy')).blocks.map((b) => b.blocked_user_id)).toEqual(['ben']);
    const again = await harness.connect('amy');
    expect(again.blockedUsers.getLatestValue().userIds).toEqual(['ben']);
  });

  it("hides the blocked user's messages from the blocker's history, replies, search and live events", async () => {
    const parent = await room.sendMessage({ text: 'amy asks' });
    const live = collectEvents(room, 'message.new');
    await benRoom.sendMessage({ text: 'ben whispers' });
    await benRoom.sendMessage({ text: 'ben answers in thread', parent_id: parent.message.id });
    const marker = nextEvent(room, 'message.new', (event) => event.message?.text === 'amy marker');
    await room.sendMessage({ text: 'amy marker' });
    await marker;
    live.stop();
    expect(live.events.map((event) => event.message?.text)).toEqual(['amy marker']);

    expect(await texts(room)).toEqual(['amy asks', 'amy marker']);
    expect(await texts(benRoom)).toEqual(['amy asks', 'ben whispers', 'amy marker']);
    expect((await room.getReplies(parent.message.id, {})).messages).toEqual([]);
    expect((await benRoom.getReplies(parent.message.id, {})).messages.map((m) => m.text)).toEqual(['ben answers in thread']);
    const search = (client: StreamChat) => client.search({ cid: 'messaging:block-room' }, 'ben');
    expect((await search(amy)).results).toEqual([]);
    expect((await search(ben)).results.map((r) => r.message.text).sort()).toEqual(['ben answers in thread', 'ben whispers']);
  });

  it('refuses direct messages either way while blocked, and lets them through once unblocked', async () => {
    const amyDm = amy.channel('messaging', { members: ['amy', 'ben'] });
    await amyDm.watch();
    const benDm = ben.channel('messaging', { members: ['amy', 'ben'] });
    await benDm.watch();
    await expect(amyDm.sendMessage({ text: 'hello?' })).rejects.toMatchObject({ code: 17 });
    await expect(benDm.sendMessage({ text: 'hello?' })).rejects.toMatchObject({ code: 17 });

    await amy.unBlockUser('ben');
    expect((await amy.getBlockedUsers()).blocks).toEqual([]);
    await amyDm.sendMessage({ text: 'hello again' });
    await benDm.sendMessage({ text: 'hi amy' });
    expect(await texts(amyDm)).toEqual(['hello again', 'hi amy']);
    expect(await texts(room)).toContain('ben whispers');
  });

  it('lets the server side block for a named user, and refuses bad input with code 4', async () => {
    await harness.admin.blockUser('cal', 'ben');
    expect((await ben.getBlockedUsers()).blocks.map((b) => b.blocked_user_id)).toEqual(['cal']);
    await expect(harness.admin.blockUser('cal')).rejects.toMatchObject({ code: 4 });
    await expect(amy.blockUser('amy')).rejects.toMatchObject({ code: 4 });
    await expect(amy.blockUser('nobody-known')).rejects.toMatchObject({ code: 4 });
    const token = await signToken({ user_id: 'amy' });
    const empty = await harness.request('/users/block', { token, userId: 'amy', body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe(4);
  });
});
