// Names of custom roles and permissions as the provider's API schema allows them: bounded in
// length (a role's name 64 characters, a permission's id 255), any characters inside, so the
// SDK's own `createRole(uuidv4())` works and a role so named is deleted by that name.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateRoleAPIResponse, ListRolesAPIResponse, PermissionAPIResponse } from 'stream-chat';
import { failure, startHarness, type Harness } from '../helpers';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});

afterAll(async () => {
  await harness?.close();
});

const roleNames = async () => ((await harness.admin.listRoles()) as ListRolesAPIResponse).roles.map((role) => role.name);

describe('role names', () => {
  it('creates and deletes a role named by a UUID, and by names with capitals, spaces and slashes', async () => {
    for (const name of [randomUUID(), 'Support Agent', 'team/red', 'x'.repeat(64)]) {
      const created: CreateRoleAPIResponse = await harness.admin.createRole(name);
      expect(created.role).toMatchObject({ name, custom: true });
      expect(await roleNames()).toContain(name);
      await harness.admin.deleteRole(name);
      expect(await roleNames()).not.toContain(name);
    }
  });

  it('gives a user a UUID-named role, whose grants decide what the user may do', async () => {
    const role = randomUUID();
    await harness.admin.createRole(role);
    await harness.admin.upsertUsers([{ id: 'agent', role }, { id: 'visitor' }]);
    await harness.admin.updateChannelType('messaging', { grants: { [role]: ['read-channel', 'create-message'] } });
    await harness.admin.channel('messaging', 'desk', { members: ['visitor'], created_by_id: 'visitor' }).create();
    const agent = await harness.connect('agent');
    const { channel } = await agent.channel('messaging', 'desk').query({});
    expect(channel.own_capabilities).toContain('send-message');
    // Still given to a user: not deletable yet.
    expect(await failure(harness.admin.deleteRole(role))).toMatchObject({ status: 400, code: 4 });
  });

  it('refuses a name over 64 characters, an empty one, and an existing or built-in one (4)', async () => {
    expect(await failure(harness.admin.createRole('x'.repeat(65)))).toMatchObject({ status: 400, code: 4 });
    expect(await failure(harness.admin.createRole(''))).toMatchObject({ status: 400, code: 4 });
    expect(await failure(harness.admin.createRole('admin'))).toMatchObject({ status: 400, code: 4 });
    await harness.admin.createRole('twice');
    expect(await failure(harness.admin.createRole('twice'))).toMatchObject({ status: 400, code: 4 });
    expect(await failure(harness.admin.deleteRole(randomUUID()))).toMatchObject({ status: 404, code: 16 });
  });
});

describe('custom permission ids', () => {
  it('follow the same schema: a UUID id works, one over 255 characters is refused (4)', async () => {
    const id = randomUUID();
    await harness.admin.createPermission({ id, name: 'Post as agent', action: 'CreateMessage', condition: {} });
    const found: PermissionAPIResponse = await harness.admin.getPermission(id);
    expect(found.permission).toMatchObject({ id, custom: true, name: 'Post as agent' });
    await harness.admin.deletePermission(id);

    const tooLong = { id: 'p'.repeat(256), name: 'x', action: 'CreateMessage', condition: {} };
    expect(await failure(harness.admin.createPermission(tooLong))).toMatchObject({ status: 400, code: 4 });
    const longName = { id: 'fine', name: 'n'.repeat(101), action: 'CreateMessage', condition: {} };
    expect(await failure(harness.admin.createPermission(longName))).toMatchObject({ status: 400, code: 4 });
  });
});
