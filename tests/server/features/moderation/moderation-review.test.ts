// Reviewing flags through the real SDK: what users flag shows in queryFlags, queryMessageFlags
// and as flag reports (one per message), moderators hear message.flagged / user.flagged live, a
// review is recorded and shown, updateFlags marks messages reviewed, and only server-side calls
// and roles with read-flags may look. Bad input is the provider's error JSON, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, StreamChat } from 'stream-chat';
import { createUsers, nextEvent, startHarness, type Harness } from '../../helpers';
import { createAdmin } from '../../scenes';

let harness: Harness;
let alice: StreamChat;
let bob: StreamChat;
let carol: StreamChat;
let mod: StreamChat;
let room: Channel;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob', 'carol');
  await createAdmin(harness, 'mod');
  alice = await harness.connect('alice');
  bob = await harness.connect('bob');
  carol = await harness.connect('carol');
  mod = await harness.connect('mod');
  room = alice.channel('messaging', 'review-room', { members: ['alice', 'bob', 'carol'] });
  await room.watch();
});

afterAll(async () => {
  await harness?.close();
});

const say = async (text: string) => (await room.sendMessage({ text })).message;

describe('flags and reports', () => {
  it('shows a flagged message in every query, as one report counting its flags, and tells moderators live', async () => {
    const message = await say('buy cheap watches');
    const heard = nextEvent(mod, 'message.flagged' as never);
    await bob.flagMessage(message.id, { reason: 'spam' });
    expect(await heard).toMatchObject({ cid: 'messaging:review-room', message: { id: message.id }, user: { id: 'bob' } });
    await carol.flagMessage(message.id);

    const { flags = [] } = await harness.admin._queryFlags({ message_id: message.id });
    expect(flags.map((flag) => flag.user?.id).sort()).toEqual(['bob', 'carol']);
    expect(flags.find((flag) => flag.user?.id === 'bob')).toMatchObject({
      target_message: { id: message.id, text: 'buy cheap watches' },
      created_by_automod: false,
      details: { reason: 'spam' },
    });

    // user_id is the flagged message's author; the reporter is reporter_id.
    const byBob = await harness.admin.queryMessageFlags({ user_id: 'alice', reporter_id: 'bob', channel_cid: 'messaging:review-room' } as never);
    expect(byBob.flags?.map((flag) => flag.message.id)).toEqual([message.id]);
    expect(byBob.flags?.[0]).toMatchObject({ user: { id: 'bob' }, created_by_automod: false });
    expect(byBob.flags?.[0]?.reviewed_at).toBeUndefined();

    const { flag_reports } = await harness.admin._queryFlagReports({ message_id: message.id });
    expect(flag_reports).toHaveLength(1);
    expect(flag_reports[0]).toMatchObject({
      id: message.id,
      flags_count: 2,
      message: { id: message.id },
      user: { id: 'alice' },
      first_reporter: { id: 'bob' },
    });
    expect(flag_reports[0]?.review_result).toBeUndefined();
  });

  it('records a review of a report and shows it on the report and on the message flags', async () => {
    const message = await say('rude remark');
    await bob.flagMessage(message.id);
    const review = { user_id: 'mod', review_details: { note: 'fine' } };
    const { flag_report } = await harness.admin._reviewFlagReport(message.id, 'approved', review);
    expect(flag_report).toMatchObject({ id: message.id, review_result: 'approved', reviewed_by: { id: 'mod' } });
    expect(flag_report.reviewed_at).toEqual(expect.any(String));

    const reviewed = await harness.admin._queryFlagReports({ review_result: 'approved' });
    expect(reviewed.flag_reports.map((report) => report.id)).toEqual([message.id]);
    const flags = await harness.admin.queryMessageFlags({ is_reviewed: true } as never);
    expect(flags.flags?.map((flag) => flag.message.id)).toEqual([message.id]);
    expect(flags.flags?.[0]).toMatchObject({ reviewed_by: { id: 'mod' }, approved_at: expect.any(String) });
  });

  it('marks flagged messages reviewed with updateFlags, by id or by author', async () => {
    const first = await say('first bad one');
    const second = (await bob.channel('messaging', 'review-room').sendMessage({ text: 'bob is bad too' })).message;
    await carol.flagMessage(first.id);
    await carol.flagMessage(second.id);
    await harness.admin.updateFlags([first.id], 'mod');
    let reviewed = await harness.admin._queryFlagReports({ reviewed_by: 'mod', review_result: 'reviewed' });
    expect(reviewed.flag_reports.map((report) => report.id)).toEqual([first.id]);

    await harness.admin.updateFlags([], 'mod', { user_id: 'bob' });
    reviewed = await harness.admin._queryFlagReports({ review_result: 'reviewed' });
    expect(reviewed.flag_reports.map((report) => report.id).sort()).toEqual([first.id, second.id].sort());
  });

  it('lists user flags and tells moderators with user.flagged', async () => {
    const heard = nextEvent(mod, 'user.flagged' as never);
    await bob.flagUser('carol', { reason: 'impersonation' });
    expect(await heard).toMatchObject({ user: { id: 'bob' }, target_user: { id: 'carol' } });
    const { flags = [] } = await harness.admin._queryFlags({ user_id: 'carol', reporter_id: 'bob' });
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ target_user: { id: 'carol' }, user: { id: 'bob' }, details: { reason: 'impersonation' } });
    expect(flags[0]?.target_message).toBeUndefined();
  });

  it('lets roles with read-flags review from their own client, and refuses plain users (17)', async () => {
    const message = await say('moderate me');
    await bob.flagMessage(message.id);
    expect((await mod._queryFlagReports({ message_id: message.id })).flag_reports).toHaveLength(1);
    await expect(mod._reviewFlagReport(message.id, 'rejected')).resolves.toMatchObject({ flag_report: { reviewed_by: { id: 'mod' } } });

    const refused = { code: 17, status: 403 };
    await expect(alice._queryFlags({})).rejects.toMatchObject(refused);
    await expect(alice.queryMessageFlags({})).rejects.toMatchObject(refused);
    await expect(alice._queryFlagReports({})).rejects.toMatchObject(refused);
    await expect(alice._reviewFlagReport(message.id, 'approved')).rejects.toMatchObject(refused);
    await expect(alice.updateFlags([message.id], 'alice')).rejects.toMatchObject(refused);
    await expect(alice.unblockMessage(message.id)).rejects.toMatchObject(refused);
  });
});

describe('bad input', () => {
  it('answers the provider\'s error JSON, never a 500', async () => {
    const message = await say('nothing wrong here');
    const input = { code: 4, status: 400 };
    await expect(harness.admin._reviewFlagReport(message.id, '')).rejects.toMatchObject(input);
    await expect(harness.admin._reviewFlagReport('no-such-report', 'approved')).rejects.toMatchObject({ code: 16 });
    // A message nobody flagged has no report.
    await expect(harness.admin._reviewFlagReport(message.id, 'approved')).rejects.toMatchObject({ code: 16 });
    await expect(harness.admin._queryFlags({ message_id: { $in: 'x' } } as never)).rejects.toMatchObject(input);
    await expect(harness.admin._queryFlagReports({}, { limit: 1000 })).rejects.toMatchObject(input);
    await expect(harness.admin.queryMessageFlags({ created_at: 'soon' } as never)).rejects.toMatchObject(input);
    await expect(harness.admin.updateFlags([], 'mod')).rejects.toMatchObject(input);
    await expect(harness.admin.updateFlags('x' as never, 'mod')).rejects.toMatchObject(input);
    await expect(harness.admin.unblockMessage('no-such-message')).rejects.toMatchObject({ code: 16 });
    // Only a message the blocklist held back can be unblocked (blocklists.test.ts).
    await expect(harness.admin.unblockMessage(message.id)).rejects.toMatchObject(input);
    const raw = await harness.request('/moderation/reports', { body: '[1]', token: harness.token('mod') });
    expect(raw.body).toMatchObject({ code: 4, StatusCode: 400 });
  });
});
