// The server-code example of docs/server.md (demo/owner-server.mjs), run as written against the backend:
// the site's server creates users and a support channel with its agent, bans a spammer, and its
// webhook handler accepts the backend's signed deliveries and refuses forged ones.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Event } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module without types: the documented example, as a site owner writes it
import { setUpSupport, webhookHandler } from '../../demo/owner-server.mjs';
import { startHarness, type Harness } from './helpers';
import { sleep } from './scenes';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});

afterAll(async () => {
  await harness?.close();
});

describe('the documented server code', () => {
  it('sets up support, bans the spammer, and its webhook handler verifies what it receives', async () => {
    const events: Event[] = [];
    const hooks = createServer(webhookHandler(harness.admin, (event: Event) => events.push(event)));
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = hooks.address() as AddressInfo;
      await harness.admin.updateAppSettings({ webhook_url: `http://127.0.0.1:${port}/` });
      await setUpSupport(harness.admin);

      const ann = await harness.connect('ann');
      const [support] = await ann.queryChannels({ cid: 'messaging:support-ann' });
      expect(support?.state.messages.map((m) => m.text)).toEqual(['Hi Ann, how can we help?']);
      expect(support?.state.members['agent-sam']?.channel_role).toBe('channel_moderator');
      const { bans } = await harness.admin.queryBannedUsers({ user_id: 'spammer' });
      expect(bans?.[0]).toMatchObject({ reason: 'spam', expires: expect.any(String) });
      const tagged = await harness.admin.queryChannels({ filter_tags: { $in: ['vip'] } } as never);
      expect(tagged.map((c) => c.cid)).toEqual(['messaging:support-ann']);
      const mutedForSam = await harness.admin.queryChannels({ muted: true } as never, {}, { user_id: 'agent-sam' } as never);
      expect(mutedForSam.map((c) => c.cid)).toEqual(['messaging:support-ann']);
      expect(ann.mutedUsers.map((m) => m.target.id).sort()).toEqual(['spammer', 'troll']);

      for (let i = 0; i < 100 && !events.some((e) => e.type === 'user.banned'); i++) await sleep(20);
      expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['message.new', 'member.updated', 'user.banned']));
      const forged = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{"type":"message.new"}', headers: { 'x-signature': 'f'.repeat(64) } });
      expect(forged.status).toBe(401);
    } finally {
      await harness.admin.updateAppSettings({ webhook_url: '' });
      await new Promise<void>((resolve) => hooks.close(() => resolve()));
    }
  });
});
