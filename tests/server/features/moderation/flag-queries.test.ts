// The moderation reads as the provider's server SDKs use them: flag reports found by message_id
// and reviewed with details the answer carries back (`review_details`), message flags filtered by
// channel_cid and by user_id (the flagged message's author), each flag counted once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlagReport, FlagReportsResponse, MessageFlagsResponse, ReviewFlagReportResponse, StreamChat } from 'stream-chat';
import { createUsers, failure, startHarness, type Harness } from '../../helpers';
import { createAdmin } from '../../scenes';

let harness: Harness;

/** The provider's report carries the review's details; the SDK's type does not name them. */
type ReviewedReport = FlagReport & { review_details?: Record<string, unknown> };

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'writer', 'poster', 'reader', 'other', 'critic');
  await createAdmin(harness, 'moddy');
});

afterAll(async () => {
  await harness?.close();
});

/** A channel of its own with one message by `author`, sent server-side as the SDKs' tests do. */
async function messageIn(id: string, author: string, text: string): Promise<{ cid: string; messageId: string }> {
  const channel = harness.admin.channel('messaging', id, { members: ['writer', 'poster', 'reader', 'other', 'critic'], created_by_id: 'writer' });
  await channel.create();
  const { message } = await channel.sendMessage({ text, user_id: author });
  return { cid: channel.cid, messageId: message.id };
}

describe('flag reports', () => {
  it('finds a message\'s report by message_id, and a review answers back its details', async () => {
    const { messageId } = await messageIn('reports', 'writer', 'hello world');
    await harness.admin.flagMessage(messageId, { user_id: 'reader' });

    const found: FlagReportsResponse = await harness.admin._queryFlagReports({ message_id: messageId });
    expect(found.flag_reports).toHaveLength(1);
    expect(found.flag_reports[0]).toMatchObject({ id: messageId, message: { id: messageId, text: 'hello world' }, flags_count: 1 });

    // The reviewer is whoever `user_id` names, as the server SDKs send it.
    const reviewed: ReviewFlagReportResponse = await harness.admin._reviewFlagReport(messageId, 'reviewed', {
      user_id: 'other',
      review_details: { custom: 'reason_a' },
    });
    const report = reviewed.flag_report as ReviewedReport;
    expect(report).toMatchObject({
      id: messageId,
      message: { id: messageId, text: 'hello world' },
      review_result: 'reviewed',
      reviewed_by: { id: 'other' },
      review_details: { custom: 'reason_a' },
    });
    expect(report.reviewed_at).toEqual(expect.any(String));

    const again = (await harness.admin._queryFlagReports({ message_id: { $in: [messageId] } })).flag_reports as ReviewedReport[];
    expect(again).toHaveLength(1);
    expect(again[0]?.review_details).toEqual({ custom: 'reason_a' });

    // A review without details answers none.
    const plain = (await harness.admin._reviewFlagReport(messageId, 'approved', { user_id: 'moddy' })).flag_report as ReviewedReport;
    expect(plain.review_result).toBe('approved');
    expect(plain.review_details).toBeUndefined();
  });
});

describe('message flags', () => {
  it('filters by channel_cid and by user_id (the message\'s author), counting each flag once', async () => {
    const first = await messageIn('flags-a', 'poster', 'helloworld');
    const second = await messageIn('flags-b', 'reader', 'another one');
    await harness.admin.flagMessage(first.messageId, { user_id: 'reader' });
    await harness.admin.flagMessage(first.messageId, { user_id: 'other' });
    await harness.admin.flagMessage(second.messageId, { user_id: 'writer' });
    // A review joins every flag of its message: it must not multiply them.
    await harness.admin._reviewFlagReport(first.messageId, 'reviewed', { user_id: 'moddy', review_details: { note: 'seen' } });

    const byChannel: MessageFlagsResponse = await harness.admin.queryMessageFlags({ channel_cid: first.cid });
    expect(byChannel.flags?.map((flag) => flag.user.id).sort()).toEqual(['other', 'reader']);
    expect(byChannel.flags?.every((flag) => flag.message.id === first.messageId)).toBe(true);

    const byAuthor = await harness.admin.queryMessageFlags({ user_id: { $in: ['poster'] } });
    expect(byAuthor.flags).toHaveLength(2);
    expect(new Set(byAuthor.flags?.map((flag) => flag.message.user?.id))).toEqual(new Set(['poster']));

    const either = await harness.admin.queryMessageFlags({ user_id: { $in: ['poster', 'reader'] } });
    expect(either.flags).toHaveLength(3);
    const both = await harness.admin.queryMessageFlags({ channel_cid: { $in: [first.cid, second.cid] }, user_id: 'reader' });
    expect(both.flags?.map((flag) => flag.message.id)).toEqual([second.messageId]);
    expect(both.flags?.[0]).toMatchObject({ user: { id: 'writer' } });
  });

  it('wants a channel_cid from a moderator\'s own client (4), as only the server side may leave it out', async () => {
    const { cid, messageId } = await messageIn('flags-client', 'writer', 'look at this');
    await harness.admin.flagMessage(messageId, { user_id: 'critic' });
    const moddy: StreamChat = await harness.connect('moddy');
    expect(await failure(moddy.queryMessageFlags({ user_id: 'writer' }))).toMatchObject({ status: 400, code: 4 });
    const { flags } = await moddy.queryMessageFlags({ channel_cid: cid });
    expect(flags?.map((flag) => flag.message.id)).toEqual([messageId]);
  });
});
