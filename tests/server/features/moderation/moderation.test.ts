// Mutes and flags through the SDK: mute lists reach the client only by event and in `me`, mutes
// expire by themselves, and flags are recorded for a message or a user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsers, nextEvent, startHarness, type Harness } from '../../helpers';
import { watchingPair } from '../../scenes';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob', 'carol', 'mia', 'ned');
});

afterAll(async () => {
  await harness?.close();
});

describe('user mutes', () => {
  it('mutes a user: notification.mutes_updated carries me.mutes, the SDK\'s mutedUsers follows, and unmute empties it', async () => {
    const mia = await harness.connect('mia');
    const updated = nextEvent(mia, 'notification.mutes_updated');
    const response = await mia.muteUser('ned');
    expect(response.mute).toMatchObject({ user: expect.objectContaining({ id: 'mia' }), target: expect.objectContaining({ id: 'ned' }) });
    expect((await updated).me?.mutes.map((m) => m.target.id)).toEqual(['ned']);
    expect(mia.mutedUsers.map((m) => m.target.id)).toEqual(['ned']);
    expect(mia.userMuteStatus('ned')).toBe(true);

    const fresh = harness.client();
    const connected = await fresh.connectUser({ id: 'mia' }, harness.token('mia'));
    expect(connected?.me?.mutes.map((m) => m.target.id)).toEqual(['ned']);
    await fresh.disconnectUser();

    const cleared = nextEvent(mia, 'notification.mutes_updated');
    await mia.unmuteUser('ned');
    expect((await cleared).me?.mutes).toEqual([]);
    expect(mia.userMuteStatus('ned')).toBe(false);
  });

  it('gives a mute with a timeout (minutes) its expiry', async () => {
    const mia = await harness.connect('mia');
    const before = Date.now();
    const { mute } = await mia.muteUser('carol', undefined, { timeout: 30 });
    const expires = Date.parse((mute as { expires?: string }).expires ?? '');
    expect(expires - before).toBeGreaterThanOrEqual(30 * 60_000 - 1000);
    expect(expires - before).toBeLessThanOrEqual(30 * 60_000 + 5000);
    await mia.unmuteUser('carol');
  });

  it('refuses muting oneself or a user who does not exist (code 4)', async () => {
    const mia = await harness.connect('mia');
    await expect(mia.muteUser('mia')).rejects.toMatchObject({ code: 4 });
    await expect(mia.muteUser('ghost-user')).rejects.toMatchObject({ code: 4 });
  });
});

describe('channel mutes', () => {
  it('mutes a channel until its expiration: channel_mutes_updated, muteStatus, and a second event when it ends', async () => {
    const { a, ac } = await watchingPair(harness, 'mute-channel');
    const muted = nextEvent(a, 'notification.channel_mutes_updated');
    const response = await ac.mute({ expiration: 600 });
    expect(response.channel_mute.channel?.cid).toBe('messaging:mute-channel');
    expect((await muted).me?.channel_mutes.map((m) => m.channel?.cid)).toEqual(['messaging:mute-channel']);
    expect(ac.muteStatus()).toMatchObject({ muted: true, expiresAt: expect.any(Date) });

    const ended = await nextEvent(a, 'notification.channel_mutes_updated', () => true, 3000);
    expect(ended.me?.channel_mutes).toEqual([]);
    expect(ac.muteStatus().muted).toBe(false);
  });

  it('keeps a mute without expiration until unmute', async () => {
    const { a, ac } = await watchingPair(harness, 'mute-forever');
    await ac.mute();
    const fresh = harness.client();
    const connected = await fresh.connectUser({ id: 'alice' }, harness.token('alice'));
    expect(connected?.me?.channel_mutes.map((m) => m.channel?.cid)).toContain('messaging:mute-forever');
    await fresh.disconnectUser();
    const cleared = nextEvent(a, 'notification.channel_mutes_updated');
    await ac.unmute();
    expect((await cleared).me?.channel_mutes.map((m) => m.channel?.cid)).not.toContain('messaging:mute-forever');
  });

  it('refuses muting a channel without mute-channel (a livestream viewer) with code 17', async () => {
    const owner = await harness.connect('alice');
    await owner.channel('livestream', 'mute-live').watch();
    const viewer = (await harness.connect('carol')).channel('livestream', 'mute-live');
    await viewer.watch();
    await expect(viewer.mute()).rejects.toMatchObject({ code: 17 });
  });
});

describe('flags', () => {
  it('flags a message and a user, and unflags them', async () => {
    const { b, ac } = await watchingPair(harness, 'flags');
    const { message } = await ac.sendMessage({ text: 'rude words' });
    const { flag } = await b.flagMessage(message.id, { reason: 'spam' });
    expect(flag).toMatchObject({
      target_message_id: message.id,
      user: expect.objectContaining({ id: 'bob' }),
      channel_cid: 'messaging:flags',
      message_user_id: 'alice',
      details: { reason: 'spam' },
    });
    const { flag: userFlag } = await b.flagUser('alice');
    expect(userFlag.target_user.id).toBe('alice');
    const unflagged = await b.unflagMessage(message.id);
    expect(unflagged.flag.target_message_id).toBe(message.id);
    await expect(b.unflagUser('alice')).resolves.toBeDefined();
  });

  it('refuses flagging one\'s own message or oneself (4) and a message in a channel one cannot read (17)', async () => {
    const { a, ac } = await watchingPair(harness, 'flags-refused');
    const { message } = await ac.sendMessage({ text: 'mine' });
    await expect(a.flagMessage(message.id)).rejects.toMatchObject({ code: 4 });
    await expect(a.flagUser('alice')).rejects.toMatchObject({ code: 4 });
    const carol = await harness.connect('carol');
    await expect(carol.flagMessage(message.id)).rejects.toMatchObject({ code: 17 });
  });
});

describe('mutes from the site owner\'s server', () => {
  it('mutes and unmutes several users at once (target_ids), answering a mute for each', async () => {
    await createUsers(harness, 'olga', 'pete', 'quin');
    const olga = await harness.connect('olga');
    const updated = nextEvent(olga, 'notification.mutes_updated');
    const answer = await harness.admin.post<{ mutes: Array<{ user: { id: string }; target: { id: string } }> }>(`${harness.url}/moderation/mute`, {
      target_ids: ['pete', 'quin'],
      user_id: 'olga',
      timeout: 60,
    });
    expect(answer.mutes.map((m) => [m.user.id, m.target.id])).toEqual([['olga', 'pete'], ['olga', 'quin']]);
    expect((await updated).me?.mutes?.map((m) => m.target.id).sort()).toEqual(['pete', 'quin']);
    await harness.admin.post(`${harness.url}/moderation/unmute`, { target_ids: ['pete', 'quin'], user_id: 'olga' });
    const { users } = await harness.admin.queryUsers({ id: 'olga' });
    expect(users).toHaveLength(1);
    await expect(harness.admin.post(`${harness.url}/moderation/mute`, { target_ids: [], user_id: 'olga' })).rejects.toMatchObject({ code: 4 });
  });

  it('mutes a channel for a user with an expiration, and queryChannels as that user finds it by {muted: true}', async () => {
    await watchingPair(harness, 'owner-muted', 'mia', 'ned');
    await watchingPair(harness, 'owner-loud', 'mia', 'ned');
    const channel = harness.admin.channel('messaging', 'owner-muted');
    const muted = await channel.mute({ user_id: 'ned', expiration: 60_000 });
    expect(muted.channel_mute?.channel?.cid).toBe('messaging:owner-muted');
    const asNed = { user_id: 'ned' } as never;
    const found = await harness.admin.queryChannels({ muted: true, cid: { $in: ['messaging:owner-muted', 'messaging:owner-loud'] } } as never, {}, asNed);
    expect(found.map((c) => c.cid)).toEqual(['messaging:owner-muted']);
    const loud = await harness.admin.queryChannels({ muted: false, cid: { $in: ['messaging:owner-muted', 'messaging:owner-loud'] } } as never, {}, asNed);
    expect(loud.map((c) => c.cid)).toEqual(['messaging:owner-loud']);
    // For mia, who did not mute it, it is not muted.
    const forMia = await harness.admin.queryChannels({ muted: true, cid: 'messaging:owner-muted' } as never, {}, { user_id: 'mia' } as never);
    expect(forMia).toEqual([]);
  });
});
