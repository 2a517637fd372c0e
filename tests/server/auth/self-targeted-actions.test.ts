// Actions aimed at oneself, decided by the one policy: the site owner's server (the secret,
// acting for a user through `user_id`) may flag any message in that user's name, the user's own
// included, as the provider's server SDKs do; a user's own token may not flag their own message.
// Flagging, muting or blocking one's own user is refused whoever asks (400, code 4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlagMessageResponse, FlagsResponse } from 'stream-chat';
import { createUsers, failure, startHarness, type Harness } from '../helpers';
import { watchingPair } from '../scenes';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob');
});

afterAll(async () => {
  await harness?.close();
});

describe('flagging one\'s own message', () => {
  it('is allowed server-side for the author, shows as the author\'s flag (not automod\'s), and can be lifted', async () => {
    const { ac } = await watchingPair(harness, 'own-flags');
    const { message } = await ac.sendMessage({ text: 'please review what I wrote' });

    const flagged: FlagMessageResponse = await harness.admin.flagMessage(message.id, { user_id: 'alice', reason: 'self-report' });
    expect(flagged.flag).toMatchObject({
      target_message_id: message.id,
      user: expect.objectContaining({ id: 'alice' }),
      message_user_id: 'alice',
      created_by_automod: false,
      details: { reason: 'self-report' },
    });

    const queried: FlagsResponse = await harness.admin._queryFlags({ message_id: message.id });
    expect(queried.flags).toHaveLength(1);
    expect(queried.flags?.[0]).toMatchObject({ user: { id: 'alice' }, created_by_automod: false, details: { reason: 'self-report' } });
    const { flag_reports } = await harness.admin._queryFlagReports({ message_id: message.id });
    expect(flag_reports[0]).toMatchObject({ id: message.id, flags_count: 1, first_reporter: { id: 'alice' } });
    expect(flag_reports[0]?.details).toBeUndefined();

    await harness.admin.unflagMessage(message.id, { user_id: 'alice' });
    expect((await harness.admin._queryFlags({ message_id: message.id })).flags).toEqual([]);
  });

  it('is refused to the author\'s own token (4), while another user may flag it', async () => {
    const { a, b, ac } = await watchingPair(harness, 'own-flags-user');
    const { message } = await ac.sendMessage({ text: 'mine' });
    expect(await failure(a.flagMessage(message.id))).toMatchObject({ status: 400, code: 4, message: expect.stringContaining('own message') });
    await expect(b.flagMessage(message.id)).resolves.toMatchObject({ flag: { target_message_id: message.id } });
  });
});

describe('aiming at one\'s own user', () => {
  it('refuses flagging, muting and blocking oneself, server-side (user_id) as from the user\'s token (4)', async () => {
    const alice = await harness.connect('alice');
    const refused = { status: 400, code: 4 };
    expect(await failure(harness.admin.flagUser('alice', { user_id: 'alice' }))).toMatchObject(refused);
    expect(await failure(alice.flagUser('alice'))).toMatchObject(refused);
    expect(await failure(harness.admin.post(`${harness.url}/moderation/mute`, { target_id: 'alice', user_id: 'alice' }))).toMatchObject(refused);
    expect(await failure(alice.muteUser('alice'))).toMatchObject(refused);
    expect(await failure(harness.admin.post(`${harness.url}/moderation/mute`, { target_ids: ['bob', 'alice'], user_id: 'alice' }))).toMatchObject(refused);
    expect(await failure(alice.blockUser('alice'))).toMatchObject(refused);
    expect(await failure(harness.admin.blockUser('alice', 'alice'))).toMatchObject(refused);

    // Aimed at someone else, the same calls go through.
    await harness.admin.flagUser('bob', { user_id: 'alice' });
    await harness.admin.post(`${harness.url}/moderation/mute`, { target_id: 'bob', user_id: 'alice' });
    await harness.admin.blockUser('bob', 'alice');
  });
});
