// Which calls of the spec's table (§7) the backend serves: each is asked once, signed with the
// secret, with an empty body; any answer but "not an endpoint of this API" (404 code 16) means
// the route exists (input errors and missing resources are fine: that is the route speaking).
// The realtime connection is checked by connecting. Prints the count per area.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken, startHarness, type Harness } from './helpers';
import { CALL_TABLE, type Call } from './call-table';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});

afterAll(async () => {
  await harness?.close();
});

async function served(call: Call): Promise<boolean> {
  if (call.path === '/connect') {
    const client = harness.client();
    await harness.admin.upsertUsers([{ id: 'table-probe' }]);
    await client.connectUser({ id: 'table-probe' }, harness.token('table-probe'));
    return client.wsConnection?.isHealthy === true;
  }
  const path = call.path.replace(/\{id\}/g, 'x');
  const response = await harness.request(path, {
    method: call.method,
    token: await signToken({ server: true }),
    ...(call.method === 'GET' || call.method === 'DELETE' ? {} : { body: {} }),
  });
  const message = typeof response.body === 'object' && response.body ? String((response.body as { message?: unknown }).message) : '';
  return !(response.status === 404 && message.includes('is not an endpoint of this API'));
}

describe('the spec\'s call table', () => {
  it('has 141 calls, and the backend serves all 141 of them: every Users, Moderation, Channels-admin and Admin call of the operator\'s side (segments, campaigns, imports and exports too), every Devices and push call and every Messages call (translation, commit, history) included', async () => {
    expect(CALL_TABLE).toHaveLength(141);
    const results: { call: Call; ok: boolean }[] = [];
    for (const call of CALL_TABLE) results.push({ call, ok: await served(call) });

    const byArea = new Map<string, { ok: number; total: number; missing: string[] }>();
    for (const { call, ok } of results) {
      const area = byArea.get(call.area) ?? { ok: 0, total: 0, missing: [] };
      area.total += 1;
      if (ok) area.ok += 1;
      else area.missing.push(`${call.method} ${call.path}`);
      byArea.set(call.area, area);
    }
    const total = results.filter((r) => r.ok).length;
    const lines = [...byArea].map(([area, { ok, total: all, missing }]) =>
      `  ${area.padEnd(22)} ${String(ok).padStart(3)} / ${String(all).padEnd(3)} ${missing.length ? `not yet: ${missing.join(', ')}` : ''}`,
    );
    console.log(`Served calls of the spec's call table: ${total} of ${CALL_TABLE.length}\n${lines.join('\n')}`);

    expect(total).toBe(141);
    const operatorSide = results.filter(({ call }) =>
      ['Users', 'Moderation'].includes(call.area)
      || call.area === 'Devices and push'
      || call.area === 'Messages'
      || ['POST /channels/delete', 'POST /export_channels', 'GET /export_channels/{id}'].includes(`${call.method} ${call.path}`)
      || (call.area === 'Admin' && /^\/(app|rate_limits|hook|channeltypes|permissions|roles|blocklists|tasks|segments|campaigns|import_urls|imports)/.test(call.path)),
    );
    expect(operatorSide.filter((r) => !r.ok).map((r) => `${r.call.method} ${r.call.path}`)).toEqual([]);
  });

  it('answers malformed input to every served call with the provider\'s error JSON, never a 500', async () => {
    // Wrong types for the fields calls read, in the body and (for GET and DELETE) the payload.
    const wrong = {
      id: {}, user_id: 12, user_ids: 'x', users: 7, user: [], set: 5, unset: 'name', data: 1, message: 2,
      filter_conditions: 3, sort: {}, limit: 'many', offset: -1, cids: 'x', name: [], words: 'x', grants: [],
      permissions: {}, target_user_id: {}, target_message_id: 9, timeout: 'soon', reason: {}, type: 5,
      review_result: 1, message_ids: 'x', blocked_user_id: [], event: 'x', hard_delete: 'yes', add_members: {},
    };
    const failures: string[] = [];
    for (const call of CALL_TABLE) {
      if (call.path === '/connect' || call.path === '/longpoll') continue;
      const path = call.path.replace(/\{id\}/g, 'x');
      const token = await signToken({ server: true });
      const reads = call.method === 'GET' || call.method === 'DELETE';
      for (const body of reads ? [undefined] : ['[1,2]', '"text"', 'null', JSON.stringify(wrong), '{"a":'.repeat(50)]) {
        const response = await harness.request(path, {
          method: call.method,
          token,
          ...(body === undefined ? { query: { payload: JSON.stringify(wrong), ...Object.fromEntries(Object.entries(wrong).map(([k, v]) => [k, JSON.stringify(v)])) } } : { body }),
        });
        const json = response.body as { code?: unknown; StatusCode?: unknown } | string;
        if (response.status >= 500 || (response.status >= 400 && (typeof json !== 'object' || typeof json.code !== 'number'))) {
          failures.push(`${call.method} ${call.path} ${body?.slice(0, 20) ?? 'payload'} → ${response.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
