// Campaigns through the real SDK: a server client (with the secret) makes a segment and a
// campaign with a template, starts it, and visitors connected with their own tokens receive
// their personalised message live, as events; scheduled starts (across a restart too), stop and
// resume, channel templates that create channels, channel segments, show_channels,
// skip_webhook (a webhook receiver on localhost) and skip_push (a push receiver on localhost);
// the SDK's Campaign objects; refusal without the secret; malformed input.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignData, CampaignResponse, Event, StreamChat } from 'stream-chat';
import { createUsers, nextEvent, signToken, startHarness, type Harness } from '../../helpers';
import { firebaseReceiver, until } from '../../push-receiver';
import { sleep } from '../../scenes';

let harness: Harness;
let admin: StreamChat;
let ann: StreamChat;
let bob: StreamChat;

beforeAll(async () => {
  harness = await startHarness({ webhooks: { baseDelayMs: 50, maxDelayMs: 200, timeoutMs: 1000 }, push: { baseDelayMs: 50, maxDelayMs: 100 } });
  admin = harness.admin;
  await createUsers(harness, 'sam', 'ann', 'bob', 'carol', 'mod');
  ann = await harness.connect('ann');
  bob = await harness.connect('bob');
});

afterAll(async () => {
  await harness?.close();
});

/** The campaign once it has finished sending (completed, or stopped). */
async function settled(client: StreamChat, id: string, timeoutMs = 8000): Promise<CampaignResponse> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const { campaign } = await client.getCampaign(id);
    if (campaign.status === 'completed' || campaign.status === 'stopped') return campaign;
    if (Date.now() > end) throw new Error(`campaign ${id} still ${campaign.status}`);
    await sleep(30);
  }
}

const fromSam = (event: Event) => event.message?.user?.id === 'sam';

describe('campaigns to segments of users', () => {
  it('sends each visitor of the segment their personalised message, which they receive live; stats count it', async () => {
    await admin.createUserSegment('visitors', { name: 'visitors' });
    await admin.addSegmentTargets('visitors', ['ann', 'bob', 'ghost']);
    const annGot = nextEvent(ann, 'notification.message_new', fromSam);
    const bobGot = nextEvent(bob, 'notification.message_new', fromSam);
    const annAdded = nextEvent(ann, 'notification.added_to_channel');

    const campaign = admin.campaign('welcome', {
      name: 'Welcome',
      segment_ids: ['visitors'],
      sender_id: 'sam',
      message_template: { text: 'Hello {{ receiver.name }}, I am {{ sender.name }}!', custom: { promo: true } },
      create_channels: true,
      channel_template: { type: 'messaging' },
    });
    const { campaign: created } = await campaign.create();
    expect(created).toMatchObject({ id: 'welcome', status: 'draft', sender: { id: 'sam', name: 'Sam' }, segments: [{ id: 'visitors', size: 3 }] });
    expect(created.stats).toMatchObject({ progress: 0, stats_messages_sent: 0 });

    const { campaign: started } = await campaign.start();
    expect(['in_progress', 'completed']).toContain(started.status);
    const [a, b] = await Promise.all([annGot, bobGot]);
    expect(a.message).toMatchObject({ text: 'Hello Ann, I am Sam!', promo: true, user: { id: 'sam' } });
    expect(b.message?.text).toBe('Hello Bob, I am Sam!');
    expect((await annAdded).channel?.id).toBe(a.channel_id);

    // The channel is the distinct channel of Ann and Sam: Ann finds it as her client would.
    const channel = ann.channel('messaging', { members: ['ann', 'sam'] });
    await channel.watch();
    expect(channel.cid).toBe(a.cid);
    expect(channel.state.messages.map((m) => m.text)).toEqual(['Hello Ann, I am Sam!']);
    expect(channel.countUnread()).toBe(1);

    const done = await settled(admin, 'welcome');
    expect(done).toMatchObject({ status: 'completed' });
    expect(done.stats).toMatchObject({
      progress: 100,
      stats_messages_sent: 2,
      stats_channels_created: 2,
      stats_users_sent: 2,
      stats_users_read: 0,
      stats_started_at: expect.any(String),
      stats_completed_at: expect.any(String),
    });
    await channel.markRead();
    expect((await campaign.get()).campaign.stats.stats_users_read).toBe(1);

    // A campaign to user_ids uses the channels that exist; without create_channels, a receiver
    // with none (Carol) is skipped. Ann watches hers and hears message.new in it.
    const inChannel = nextEvent(channel, 'message.new', fromSam);
    await admin.createCampaign({ id: 'followup', user_ids: ['ann', 'bob', 'carol'], sender_id: 'sam', message_template: { text: 'Still there, {{ receiver.id }}?' } });
    await admin.startCampaign('followup');
    expect((await inChannel).message?.text).toBe('Still there, ann?');
    const followup = await settled(admin, 'followup');
    expect(followup.stats).toMatchObject({ progress: 100, stats_messages_sent: 2, stats_channels_created: 0, stats_users_sent: 2 });
    expect(followup.users.map((u) => u.id)).toEqual(['ann', 'bob', 'carol']);
  });

  it('works through the SDK\'s Campaign objects, keeping their "Campaign id is missing" error', async () => {
    const data: CampaignData = { sender_id: 'sam', user_ids: ['ann'], message_template: { text: 'Hi {{ receiver.name }}' }, name: 'object' };
    const draft = admin.campaign(data);
    await expect(draft.start()).rejects.toThrow('Campaign id is missing');
    await expect(draft.delete()).rejects.toThrow('Campaign id is missing');
    expect(() => draft.update({ name: 'x' })).toThrow('Campaign id is missing');
    expect(() => draft.stop()).toThrow('Campaign id is missing');
    expect(() => draft.get()).toThrow('Campaign id is missing');

    await draft.create();
    expect(draft.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(draft.data).toMatchObject({ name: 'object', status: 'draft' });
    const { campaign: updated } = await draft.update({ name: 'renamed', skip_push: true });
    expect(updated).toMatchObject({ name: 'renamed', skip_push: true, message_template: { text: 'Hi {{ receiver.name }}' }, user_ids: ['ann'] });
    expect((await draft.get()).campaign.name).toBe('renamed');

    const { campaigns } = await admin.queryCampaigns({ id: { $eq: draft.id } } as never, [{ field: 'created_at', direction: -1 }], { limit: 10 });
    expect(campaigns.map((c) => c.id)).toEqual([draft.id]);
    const { campaigns: drafts } = await admin.queryCampaigns({ status: 'draft', skip_push: true } as never);
    expect(drafts.map((c) => c.id)).toEqual([draft.id]);

    const later = new Date(Date.now() + 60 * 60 * 1000).toISOString();
    const { campaign: scheduled } = await draft.start({ scheduledFor: later });
    expect(scheduled).toMatchObject({ status: 'scheduled', scheduled_for: later });
    const { campaign: stopped } = await draft.stop();
    expect(stopped.status).toBe('stopped');
    await draft.delete();
    await expect(draft.get()).rejects.toMatchObject({ code: 16, status: 404 });
  });

  it('starts a scheduled campaign at its time', async () => {
    await admin.createCampaign({ id: 'soon', user_ids: ['bob'], sender_id: 'sam', message_template: { text: 'Right on time' } });
    const got = nextEvent(bob, 'notification.message_new', (e) => e.message?.text === 'Right on time', 5000);
    const at = Date.now() + 700;
    const { campaign } = await admin.startCampaign('soon', { scheduledFor: new Date(at).toISOString() });
    expect(campaign.status).toBe('scheduled');
    await sleep(200);
    expect((await admin.getCampaign('soon')).campaign.status).toBe('scheduled');
    await got;
    expect(Date.now()).toBeGreaterThanOrEqual(at - 5);
    expect(await settled(admin, 'soon')).toMatchObject({ status: 'completed', stats: { stats_messages_sent: 1 } });
  });

  it('stops a running campaign, and started again it resumes where it stopped, sending to nobody twice', async () => {
    const crowd = Array.from({ length: 200 }, (_, i) => `fan-${String(i).padStart(3, '0')}`);
    for (let i = 0; i < crowd.length; i += 100) await admin.upsertUsers(crowd.slice(i, i + 100).map((id) => ({ id })));
    await admin.createUserSegment('crowd', {});
    await admin.addSegmentTargets('crowd', crowd);
    await admin.createCampaign({
      id: 'crowd-news', segment_ids: ['crowd'], sender_id: 'sam', message_template: { text: 'Big news' },
      create_channels: true, channel_template: { type: 'messaging', id: 'news-{{ receiver.id }}' },
    });
    const first = await harness.connect('fan-000');
    const reached = nextEvent(first, 'notification.message_new', fromSam);
    await admin.startCampaign('crowd-news');
    // Targets go in order: once the first has its message, the campaign is under way.
    await reached;
    const { campaign: stopped } = await admin.stopCampaign('crowd-news');
    expect(stopped.status).toBe('stopped');
    const sentThen = (await admin.getCampaign('crowd-news')).campaign.stats.stats_messages_sent ?? 0;
    expect(sentThen).toBeLessThan(200);
    await sleep(300);
    const { campaign: still } = await admin.getCampaign('crowd-news');
    expect(still.stats.stats_messages_sent).toBe(sentThen);
    expect(still.stats.progress).toBeLessThan(100);
    // Its targets are fixed once it has started.
    await expect(admin.updateCampaign('crowd-news', { user_ids: ['ann'], segment_ids: [] })).rejects.toMatchObject({ code: 4 });

    await admin.startCampaign('crowd-news');
    const done = await settled(admin, 'crowd-news');
    expect(done.stats).toMatchObject({ progress: 100, stats_messages_sent: 200, stats_users_sent: 200, stats_channels_created: 200 });
    const { messages } = await admin.channel('messaging', 'news-fan-007').query({ messages: { limit: 10 } });
    expect(messages.map((m) => m.text)).toEqual(['Big news']);
    await expect(admin.startCampaign('crowd-news')).rejects.toMatchObject({ code: 4 });
  });

  it('creates channels from the channel template: its id, custom data, members with roles, the sender left out or hidden', async () => {
    const added = nextEvent(ann, 'notification.added_to_channel', (e) => e.channel?.id === 'ann-news');
    await admin.createCampaign({
      id: 'templated', user_ids: ['ann', 'bob'], sender_id: 'sam', sender_mode: 'exclude',
      message_template: { text: 'Your own news room, {{ receiver.name }}' },
      create_channels: true,
      channel_template: {
        type: 'messaging', id: '{{ receiver.id }}-news', custom: { name: 'News', topic: 'offers' },
        members_template: [{ user_id: 'mod', channel_role: 'channel_moderator' }],
      },
    });
    await admin.startCampaign('templated');
    expect((await added).channel).toMatchObject({ id: 'ann-news', name: 'News' });
    expect(await settled(admin, 'templated')).toMatchObject({ stats: { stats_channels_created: 2, stats_messages_sent: 2 } });

    const room = ann.channel('messaging', 'ann-news');
    const state = await room.watch();
    expect(state.channel).toMatchObject({ name: 'News', topic: 'offers', created_by: { id: 'sam' } });
    expect(state.members.map((m) => [m.user_id, m.channel_role]).sort()).toEqual([['ann', 'channel_member'], ['mod', 'channel_moderator']]);
    expect(state.messages.map((m) => [m.user?.id, m.text])).toEqual([['sam', 'Your own news room, Ann']]);

    // Included, the sender is a member; sender_visibility hides the new channel from them.
    const sam = await harness.connect('sam');
    await admin.createCampaign({
      id: 'quiet', user_ids: ['bob'], sender_id: 'sam', sender_visibility: 'hidden', message_template: { text: 'psst' },
      create_channels: true, channel_template: { type: 'messaging', id: 'quiet-{{ receiver.id }}' },
    });
    await admin.startCampaign('quiet');
    await settled(admin, 'quiet');
    expect(await sam.queryChannels({ cid: 'messaging:quiet-bob' })).toHaveLength(0);
    const hidden = await sam.queryChannels({ cid: 'messaging:quiet-bob', hidden: true });
    expect(hidden.map((c) => c.cid)).toEqual(['messaging:quiet-bob']);
    expect(await bob.queryChannels({ cid: 'messaging:quiet-bob' })).toHaveLength(1);
  });

  it('leaves a channel the receiver hid hidden, unless show_channels', async () => {
    await admin.channel('messaging', 'shy', { members: ['ann', 'sam'], created_by_id: 'sam' }).create();
    const shyRoom = ann.channel('messaging', 'shy');
    await shyRoom.watch();
    await shyRoom.hide();
    const template = { type: 'messaging', id: 'shy' };
    await admin.createCampaign({ id: 'unseen', user_ids: ['ann'], sender_id: 'sam', message_template: { text: 'one' }, channel_template: template });
    await admin.startCampaign('unseen');
    await settled(admin, 'unseen');
    expect(await ann.queryChannels({ cid: 'messaging:shy' })).toHaveLength(0);

    const visible = nextEvent(ann, 'channel.visible', (e) => e.cid === 'messaging:shy');
    await admin.createCampaign({ id: 'shown', user_ids: ['ann'], sender_id: 'sam', message_template: { text: 'two' }, channel_template: template, show_channels: true });
    await admin.startCampaign('shown');
    await visible;
    const [shy] = await ann.queryChannels({ cid: 'messaging:shy' });
    expect(shy?.state.messages.map((m) => m.text)).toEqual(['one', 'two']);
  });
});

describe('campaigns to segments of channels', () => {
  it('sends into each channel of the segment (the sender included when asked), heard live by its watchers', async () => {
    await admin.channel('messaging', 'lobby', { name: 'Lobby', members: ['ann', 'bob'], created_by_id: 'bob' } as never).create();
    await admin.channel('messaging', 'desk', { name: 'Desk', members: ['ann', 'sam'], created_by_id: 'sam' } as never).create();
    const lobby = ann.channel('messaging', 'lobby');
    await lobby.watch();
    await admin.createChannelSegment('rooms', { name: 'rooms' });
    await admin.addSegmentTargets('rooms', ['messaging:lobby', 'messaging:desk', 'messaging:gone']);

    const joined = nextEvent(lobby, 'member.added', (e) => e.member?.user_id === 'sam');
    const heard = nextEvent(lobby, 'message.new', fromSam);
    await admin.createCampaign({ id: 'rooms-news', segment_ids: ['rooms'], sender_id: 'sam', sender_mode: 'include', message_template: { text: 'News in {{ channel.name }}' } });
    await admin.startCampaign('rooms-news');
    await joined;
    expect((await heard).message?.text).toBe('News in Lobby');
    const done = await settled(admin, 'rooms-news');
    expect(done.stats).toMatchObject({ progress: 100, stats_messages_sent: 2, stats_users_sent: 3, stats_channels_created: 0 });
    const { messages } = await admin.channel('messaging', 'desk').query({});
    expect(messages.map((m) => m.text)).toEqual(['News in Desk']);

    await expect(admin.createCampaign({ segment_ids: ['rooms', 'visitors'], sender_id: 'sam', message_template: { text: 'x' } })).rejects.toMatchObject({ code: 4 });

    // A campaign waiting to start holds its segments: they cannot be deleted meanwhile.
    await admin.createCampaign({ id: 'held', segment_ids: ['rooms'], sender_id: 'sam', message_template: { text: 'later' } });
    await admin.startCampaign('held', { scheduledFor: new Date(Date.now() + 60 * 60 * 1000).toISOString() });
    expect((await admin.getSegment('rooms')).segment.locked).toBe(true);
    await expect(admin.deleteSegment('rooms')).rejects.toMatchObject({ code: 4 });
    await admin.stopCampaign('held');
    expect((await admin.getSegment('rooms')).segment.locked).toBe(false);
  });
});

describe('skip_webhook and skip_push', () => {
  it('sends no webhook for any change a campaign with skip_webhook makes, and the usual ones without it', async () => {
    const received: Event[] = [];
    const hooks: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (admin.verifyWebhook(body, String(req.headers['x-signature']))) received.push(JSON.parse(body) as Event);
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    try {
      await admin.updateAppSettings({ webhook_url: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks`, webhook_events: [] });
      const base = { user_ids: ['ann'], sender_id: 'sam', create_channels: true };
      const quietSeen = nextEvent(ann, 'notification.message_new', (e) => e.cid === 'messaging:hooks-quiet-ann');
      await admin.createCampaign({ ...base, id: 'hooks-quiet', skip_webhook: true, message_template: { text: 'not for hooks' }, channel_template: { type: 'messaging', id: 'hooks-quiet-{{ receiver.id }}' } });
      await admin.startCampaign('hooks-quiet');
      await settled(admin, 'hooks-quiet');
      await quietSeen;
      await admin.createCampaign({ ...base, id: 'hooks-loud', message_template: { text: 'for hooks' }, channel_template: { type: 'messaging', id: 'hooks-loud-{{ receiver.id }}' } });
      await admin.startCampaign('hooks-loud');
      await until(() => received.some((e) => e.type === 'message.new' && e.cid === 'messaging:hooks-loud-ann'), 'the webhook of the campaign without skip_webhook');
      await sleep(200);
      expect(received.filter((e) => e.cid === 'messaging:hooks-loud-ann').map((e) => e.type)).toEqual(['channel.created', 'message.new']);
      expect(received.filter((e) => e.cid === 'messaging:hooks-quiet-ann')).toEqual([]);
    } finally {
      await admin.updateAppSettings({ webhook_url: '' });
      await new Promise<void>((resolve) => hooks.close(() => resolve()));
    }
  });

  it('pushes no notification for a campaign with skip_push, and the usual one without it', async () => {
    const fcm = await firebaseReceiver();
    try {
      await admin.upsertPushProvider({ type: 'firebase', name: 'android', firebase_credentials: fcm.credentials, base_url: fcm.url } as never);
      await bob.addDevice('bob-phone', 'firebase');
      const base = { user_ids: ['bob'], sender_id: 'sam', create_channels: true };
      await admin.createCampaign({ ...base, id: 'push-quiet', skip_push: true, message_template: { text: 'no buzz' }, channel_template: { type: 'messaging', id: 'push-quiet-{{ receiver.id }}' } });
      await admin.createCampaign({ ...base, id: 'push-loud', message_template: { text: 'buzz' }, channel_template: { type: 'messaging', id: 'push-loud-{{ receiver.id }}' } });
      await admin.startCampaign('push-quiet');
      await settled(admin, 'push-quiet');
      await admin.startCampaign('push-loud');
      const bodies = () => fcm.sends.map((send) => send.json.message.apns?.payload?.aps?.alert?.body ?? send.json.message.notification?.body);
      await until(() => bodies().includes('buzz'), 'the push of the campaign without skip_push');
      await sleep(200);
      expect(bodies()).not.toContain('no buzz');
    } finally {
      await admin.deletePushProvider({ type: 'firebase', name: 'android' });
      await fcm.close();
    }
  });
});

describe('campaign calls', () => {
  it('are for the site owner\'s server alone: the SDK refuses without the secret, and so does the backend (17)', async () => {
    expect(() => ann.createCampaign({ sender_id: 'ann' })).toThrow('This feature can be used server-side only');
    expect(() => ann.campaign('welcome').get()).toThrow('server-side only');

    const token = harness.token('ann');
    const calls: [string, string, object?][] = [
      ['POST', '/campaigns', { sender_id: 'ann', user_ids: ['bob'], message_template: { text: 'mine' } }],
      ['POST', '/campaigns/query', {}],
      ['GET', '/campaigns/welcome'],
      ['PUT', '/campaigns/welcome', { name: 'taken' }],
      ['DELETE', '/campaigns/welcome'],
      ['POST', '/campaigns/welcome/start', {}],
      ['POST', '/campaigns/welcome/stop', {}],
    ];
    for (const [method, path, body] of calls) {
      const response = await harness.request(path, { method, token, userId: 'ann', ...(body ? { body } : {}) });
      expect({ call: `${method} ${path}`, status: response.status, code: response.body.code }).toEqual({ call: `${method} ${path}`, status: 403, code: 17 });
    }
    expect((await admin.getCampaign('welcome')).campaign.name).toBe('Welcome');
  });

  it('answers malformed input with the provider\'s error JSON (4, or 16 for what does not exist), never a 500', async () => {
    const token = await signToken({ server: true });
    await admin.createCampaign({ id: 'shape', user_ids: ['ann'], sender_id: 'sam', message_template: { text: 'shape' } });
    const valid = { user_ids: ['ann'], sender_id: 'sam', message_template: { text: 'ok' } };
    const bad: [string, string, unknown][] = [
      ['POST', '/campaigns', '[1,2]'],
      ['POST', '/campaigns', '{"sender_id":'],
      ['POST', '/campaigns', {}],
      ['POST', '/campaigns', { ...valid, sender_id: 'nobody' }],
      ['POST', '/campaigns', { ...valid, sender_id: 5 }],
      ['POST', '/campaigns', { ...valid, id: 'a/b' }],
      ['POST', '/campaigns', { ...valid, id: 'shape' }],
      ['POST', '/campaigns', { ...valid, message_template: 'hi' }],
      ['POST', '/campaigns', { ...valid, message_template: { text: '' } }],
      ['POST', '/campaigns', { ...valid, message_template: { text: '{{#if receiver}}never closed' } }],
      ['POST', '/campaigns', { ...valid, message_template: { text: 'x', attachments: 'none' } }],
      ['POST', '/campaigns', { ...valid, message_template: { text: 'x', poll_id: 'p' } }],
      ['POST', '/campaigns', { ...valid, user_ids: 'ann' }],
      ['POST', '/campaigns', { ...valid, user_ids: [] }],
      ['POST', '/campaigns', { ...valid, user_ids: Array.from({ length: 10_001 }, (_, i) => `u${i}`) }],
      ['POST', '/campaigns', { ...valid, segment_ids: ['nope'] }],
      ['POST', '/campaigns', { ...valid, sender_mode: 'maybe' }],
      ['POST', '/campaigns', { ...valid, sender_visibility: 1 }],
      ['POST', '/campaigns', { ...valid, create_channels: true }],
      ['POST', '/campaigns', { ...valid, create_channels: 'yes', channel_template: { type: 'messaging' } }],
      ['POST', '/campaigns', { ...valid, channel_template: { type: 'nope' } }],
      ['POST', '/campaigns', { ...valid, channel_template: { id: 'x' } }],
      ['POST', '/campaigns', { ...valid, channel_template: { type: 'messaging', members: ['nobody'] } }],
      ['POST', '/campaigns', { ...valid, channel_template: { type: 'messaging', members_template: [{ channel_role: 'channel_member' }] } }],
      ['POST', '/campaigns', { ...valid, channel_template: { type: 'messaging', members_template: [{ user_id: 'mod', channel_role: 'boss' }] } }],
      ['POST', '/campaigns', { ...valid, channel_template: { type: 'messaging', team: 'blue' } }],
      ['POST', '/campaigns', { ...valid, name: { x: 1 } }],
      ['POST', '/campaigns/query', { filter: 'x' }],
      ['POST', '/campaigns/query', { limit: -1 }],
      ['POST', '/campaigns/query', { user_limit: 'all' }],
      ['POST', '/campaigns/query', { filter: { status: { $bogus: 1 } } }],
      ['PUT', '/campaigns/shape', { message_template: { text: 7 } }],
      ['PUT', '/campaigns/shape', { segment_ids: ['visitors'] }],
      ['PUT', '/campaigns/shape', '"text"'],
      ['POST', '/campaigns/shape/start', { scheduled_for: 'tomorrow-ish' }],
      ['POST', '/campaigns/shape/start', { scheduled_for: 12 }],
      ['POST', '/campaigns/shape/start', { stop_at: '2001-01-01T00:00:00Z' }],
      ['POST', '/campaigns/shape/stop', {}],
    ];
    for (const [method, path, body] of bad) {
      const response = await harness.request(path, { method, token, body: body as object });
      const call = `${method} ${path} ${JSON.stringify(body).slice(0, 70)}`;
      expect({ call, status: response.status, code: response.body.code }).toEqual({ call, status: 400, code: 4 });
    }
    const query = await harness.request('/campaigns/shape', { token, query: { limit: 'many' } });
    expect(query).toMatchObject({ status: 400, body: { code: 4 } });
    for (const [method, path] of [
      ['GET', '/campaigns/nope'],
      ['PUT', '/campaigns/nope'],
      ['DELETE', '/campaigns/nope'],
      ['POST', '/campaigns/nope/start'],
      ['POST', '/campaigns/nope/stop'],
    ] as const) {
      const response = await harness.request(path, { method, token, ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }) });
      expect({ call: `${method} ${path}`, status: response.status, code: response.body.code }).toEqual({ call: `${method} ${path}`, status: 404, code: 16 });
    }
    expect((await admin.getCampaign('shape')).campaign).toMatchObject({ status: 'draft', message_template: { text: 'shape' } });
  });
});

describe('campaigns across a restart', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'campaigns-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts a scheduled campaign at its time after the server restarted, and finishes one a restart interrupted', async () => {
    const dbPath = join(dir, 'chat.db');
    const first = await startHarness({ dbPath });
    const crowd = Array.from({ length: 150 }, (_, i) => `guest-${String(i).padStart(3, '0')}`);
    await first.admin.upsertUsers([{ id: 'host', name: 'Host' }, { id: 'amy', name: 'Amy' }]);
    for (let i = 0; i < crowd.length; i += 100) await first.admin.upsertUsers(crowd.slice(i, i + 100).map((id) => ({ id })));
    await first.admin.createCampaign({
      id: 'later', user_ids: ['amy'], sender_id: 'host', message_template: { text: 'Still here, {{ receiver.name }}' },
      create_channels: true, channel_template: { type: 'messaging' },
    });
    const at = Date.now() + 3000;
    await first.admin.startCampaign('later', { scheduledFor: new Date(at).toISOString() });
    await first.admin.createCampaign({
      id: 'interrupted', user_ids: crowd, sender_id: 'host', message_template: { text: 'once' },
      create_channels: true, channel_template: { type: 'messaging', id: 'once-{{ receiver.id }}' },
    });
    await first.admin.startCampaign('interrupted');
    await first.close();
    // The close came while it was sending: it is stored in progress, part of the way.
    const stored = new Database(dbPath, { readonly: true });
    expect(stored.prepare("SELECT status, targets_total, targets_done < targets_total AS partway FROM campaigns WHERE id = 'interrupted'").get())
      .toEqual({ status: 'in_progress', targets_total: 150, partway: 1 });
    stored.close();

    const second = await startHarness({ dbPath });
    try {
      expect((await second.admin.getCampaign('later')).campaign.status).toBe('scheduled');
      const amy = await second.connect('amy');
      const got = await nextEvent(amy, 'notification.message_new', (e) => e.message?.user?.id === 'host', 6000);
      expect(got.message?.text).toBe('Still here, Amy');
      expect(Date.now()).toBeGreaterThanOrEqual(at - 5);

      const resumed = await settled(second.admin, 'interrupted');
      expect(resumed.stats).toMatchObject({ progress: 100, stats_messages_sent: 150, stats_users_sent: 150 });
      const { messages } = await second.admin.channel('messaging', 'once-guest-000').query({});
      expect(messages.map((m) => m.text)).toEqual(['once']);
    } finally {
      await second.close();
    }
  });
});
