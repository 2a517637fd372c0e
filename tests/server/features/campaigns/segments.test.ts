// Segments through the real SDK, signed with the secret: user and channel segments created,
// read, queried, updated and deleted; targets listed, checked, queried with filter, sort and
// cursor, and removed; segments that select by filter, all users or the sender's channels; the
// calls refused to a user token (17) and malformed input answered with the provider's error JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamChat } from 'stream-chat';
import { createUsers, signToken, startHarness, type Harness } from '../../helpers';

let harness: Harness;
let admin: StreamChat;

beforeAll(async () => {
  harness = await startHarness();
  admin = harness.admin;
  await createUsers(harness, 'sam', 'ann', 'bob');
  await admin.partialUpdateUsers(['ann', 'bob'].map((id) => ({ id, set: { plan: 'gold' } as never })));
});

afterAll(async () => {
  await harness?.close();
});

describe('segments (server-side)', () => {
  it('creates, reads, updates, queries and deletes a segment, as the SDK\'s Segment object does', async () => {
    const segment = admin.segment('user', 'vip', { name: 'VIP', description: 'our best' });
    const { segment: created } = await segment.create();
    expect(created).toMatchObject({ id: 'vip', type: 'user', name: 'VIP', description: 'our best', size: 0, all_users: false, created_at: expect.any(String) });

    expect((await segment.get()).segment.name).toBe('VIP');
    const { segment: updated } = await segment.update({ name: 'Very important', description: 'changed' });
    expect(updated).toMatchObject({ id: 'vip', name: 'Very important', description: 'changed' });

    const { segment: other } = await admin.createUserSegment(null, { name: 'no id given' });
    expect(other.id).toMatch(/^[0-9a-f-]{36}$/);
    const { segments } = await admin.querySegments({ id: { $in: ['vip', other.id] } }, [{ field: 'name', direction: 1 }]);
    expect(segments.map((s) => s.name)).toEqual(['Very important', 'no id given']);
    const firstPage = await admin.querySegments({}, [{ field: 'created_at', direction: -1 }], { limit: 1 });
    expect(firstPage.segments.map((s) => s.id)).toEqual([other.id]);
    const secondPage = await admin.querySegments({}, [{ field: 'created_at', direction: -1 }], { limit: 1, next: firstPage.next as string });
    expect(secondPage.segments.map((s) => s.id)).toEqual(['vip']);

    await expect(admin.createUserSegment('vip', {})).rejects.toMatchObject({ code: 4, status: 400 });
    await segment.delete();
    await admin.deleteSegment(other.id);
    await expect(segment.get()).rejects.toMatchObject({ code: 16, status: 404 });
    await expect(admin.deleteSegment('vip')).rejects.toMatchObject({ code: 16 });
  });

  it('lists targets, says whether one is listed, queries them with filter, sort and cursor, and removes them', async () => {
    const segment = admin.segment('user', 'listed', { name: 'listed' });
    await segment.create();
    // Targets need not be users yet (the provider's SDK tests add random ids).
    const ids = Array.from({ length: 10 }, (_, i) => `t${String(i).padStart(2, '0')}`);
    await segment.addTargets(ids);
    await segment.addTargets(['t00', 't01']);
    expect((await segment.get()).segment.size).toBe(10);

    await expect(segment.targetExists('t03')).resolves.toMatchObject({ duration: expect.any(String) });
    await expect(segment.targetExists('nobody')).rejects.toMatchObject({ code: 16, status: 404 });

    const first = await segment.queryTargets({}, [], { limit: 3 });
    expect(first.targets).toHaveLength(3);
    expect(first.targets[0]).toMatchObject({ segment_id: 'listed', target_id: 't00', created_at: expect.any(String) });
    expect(first.next).toEqual(expect.any(String));
    const filtered = await segment.queryTargets({ target_id: { $lte: 't05' } }, [{ field: 'target_id', direction: -1 }], { limit: 3, next: first.next });
    expect(filtered.targets.map((t) => t.target_id)).toEqual(['t02', 't01', 't00']);
    const chosen = await segment.queryTargets({ target_id: { $in: ['t07', 't09', 'zz'] } });
    expect(chosen.targets.map((t) => t.target_id)).toEqual(['t07', 't09']);
    expect(chosen.next).toBeUndefined();

    await segment.removeTargets(['t00', 't01', 'not-there']);
    expect((await segment.get()).segment.size).toBe(8);
    await expect(segment.targetExists('t00')).rejects.toMatchObject({ code: 16 });
    await segment.delete();
  });

  it('selects users by filter or all of them, and channels by filter or cid; a rule segment takes no listed targets', async () => {
    const gold = await admin.createUserSegment('gold', { name: 'gold plan', filter: { plan: 'gold' } });
    expect(gold.segment).toMatchObject({ filter: { plan: 'gold' }, size: 2 });
    await expect(admin.addSegmentTargets('gold', ['sam'])).rejects.toMatchObject({ code: 4 });
    const everyone = await admin.createUserSegment('everyone', { all_users: true });
    expect(everyone.segment).toMatchObject({ all_users: true, size: 3 });
    await admin.updateSegment('gold', { filter: { plan: 'silver' } } as never);
    expect((await admin.getSegment('gold')).segment.size).toBe(0);

    await admin.channel('messaging', 'news', { created_by_id: 'sam', members: ['sam'], topic: 'news' } as never).create();
    await admin.channel('messaging', 'chat', { created_by_id: 'sam', members: ['sam'] }).create();
    const topical = await admin.createChannelSegment('topical', { filter: { topic: 'news' } });
    expect(topical.segment).toMatchObject({ type: 'channel', size: 1 });
    const mine = await admin.createChannelSegment('mine', { all_sender_channels: true });
    expect(mine.segment).toMatchObject({ all_sender_channels: true });

    const rooms = await admin.createChannelSegment('rooms', {});
    await admin.addSegmentTargets('rooms', ['messaging:news', 'messaging:chat']);
    expect((await admin.getSegment('rooms')).segment.size).toBe(2);
    await expect(admin.addSegmentTargets('rooms', ['news'])).rejects.toMatchObject({ code: 4 });
    // A segment that lists targets cannot start selecting by filter while it has them.
    await expect(admin.updateSegment('rooms', { filter: { topic: 'news' } } as never)).rejects.toMatchObject({ code: 4 });

    await expect(admin.createUserSegment('bad', { filter: { created_at: { $gte: 'not a date' } } })).rejects.toMatchObject({ code: 4 });
    await expect(admin.createUserSegment('bad', { filter: { plan: { $near: 1 } } })).rejects.toMatchObject({ code: 4 });
    await expect(admin.createChannelSegment('bad', { all_users: true })).rejects.toMatchObject({ code: 4 });
    await expect(admin.createUserSegment('bad', { all_sender_channels: true })).rejects.toMatchObject({ code: 4 });
    await expect(admin.createUserSegment('bad', { all_users: true, filter: { plan: 'gold' } })).rejects.toMatchObject({ code: 4 });
  });

  it('is for the site owner\'s server alone: the SDK refuses without the secret, and so does the backend (17)', async () => {
    await createUsers(harness, 'visitor');
    const visitor = await harness.connect('visitor');
    expect(() => visitor.segment('user', 'x', {}).create()).toThrow('This feature can be used server-side only');
    expect(() => visitor.querySegments({})).toThrow('server-side only');

    await admin.createUserSegment('guarded', {});
    const token = harness.token('visitor');
    const calls: [string, string, object?][] = [
      ['POST', '/segments', { type: 'user', id: 'mine' }],
      ['POST', '/segments/query', {}],
      ['GET', '/segments/guarded'],
      ['PUT', '/segments/guarded', { name: 'taken' }],
      ['DELETE', '/segments/guarded'],
      ['POST', '/segments/guarded/addtargets', { target_ids: ['visitor'] }],
      ['POST', '/segments/guarded/deletetargets', { target_ids: ['visitor'] }],
      ['POST', '/segments/guarded/targets/query', {}],
      ['GET', '/segments/guarded/target/visitor'],
    ];
    for (const [method, path, body] of calls) {
      const response = await harness.request(path, { method, token, userId: 'visitor', ...(body ? { body } : {}) });
      expect({ call: `${method} ${path}`, status: response.status, code: response.body.code }).toEqual({ call: `${method} ${path}`, status: 403, code: 17 });
    }
    expect((await admin.getSegment('guarded')).segment.name).toBe('');
  });

  it('answers malformed input with the provider\'s error JSON (4, or 16 for what does not exist), never a 500', async () => {
    await admin.createUserSegment('shaped', {});
    const bad: [string, string, unknown][] = [
      ['POST', '/segments', { type: 'users' }],
      ['POST', '/segments', { type: 'user', id: 'has a space' }],
      ['POST', '/segments', { type: 'user', name: 7 }],
      ['POST', '/segments', { type: 'user', filter: 'plan' }],
      ['POST', '/segments', { type: 'user', all_users: 'yes' }],
      ['POST', '/segments', { type: 'user', description: 'x'.repeat(3000) }],
      ['POST', '/segments/query', { filter: 3 }],
      ['POST', '/segments/query', { sort: [{ field: 'name', direction: 2 }] }],
      ['POST', '/segments/query', { limit: 'many' }],
      ['POST', '/segments/query', { next: 'not-a-cursor' }],
      ['PUT', '/segments/shaped', { name: [] }],
      ['PUT', '/segments/shaped', { filter: [1] }],
      ['POST', '/segments/shaped/addtargets', {}],
      ['POST', '/segments/shaped/addtargets', { target_ids: 'ann' }],
      ['POST', '/segments/shaped/addtargets', { target_ids: [1, 2] }],
      ['POST', '/segments/shaped/addtargets', { target_ids: ['x'.repeat(300)] }],
      ['POST', '/segments/shaped/addtargets', { target_ids: Array.from({ length: 10_001 }, (_, i) => `u${i}`) }],
      ['POST', '/segments/shaped/deletetargets', { target_ids: {} }],
      ['POST', '/segments/shaped/targets/query', { filter: { target_id: { $regex: 'a' } } }],
      ['POST', '/segments/shaped/targets/query', { limit: 0 }],
      ['POST', '/segments', '[1,2]'],
      ['POST', '/segments', '{"type":'],
    ];
    const token = await signToken({ server: true });
    for (const [method, path, body] of bad) {
      const response = await harness.request(path, { method, token, body: body as object });
      const call = `${method} ${path} ${JSON.stringify(body).slice(0, 60)}`;
      expect({ call, refused: response.status >= 400 && response.status < 500, code: typeof response.body.code }).toEqual({ call, refused: true, code: 'number' });
      expect(response.body).toMatchObject({ StatusCode: response.status, message: expect.any(String), more_info: expect.any(String) });
    }
    for (const [method, path] of [
      ['GET', '/segments/nope'],
      ['PUT', '/segments/nope'],
      ['DELETE', '/segments/nope'],
      ['POST', '/segments/nope/addtargets'],
      ['POST', '/segments/nope/targets/query'],
      ['GET', '/segments/nope/target/ann'],
    ] as const) {
      const response = await harness.request(path, { method, token, ...(method === 'GET' || method === 'DELETE' ? {} : { body: { target_ids: ['a'] } }) });
      expect({ call: `${method} ${path}`, status: response.status, code: response.body.code }).toEqual({ call: `${method} ${path}`, status: 404, code: 16 });
    }
  });
});
