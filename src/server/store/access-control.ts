// Custom roles (`/roles`) and custom permissions (`/permissions`); the built-in ones live in
// code (auth/permissions.ts).
import type { PermissionEntry } from '../auth/permissions';
import type { Db } from './db';

export type RoleRow = { name: string; created_at: string; updated_at: string };
/** A custom permission grants the built-in permission it names in `grants` (its `action`'s id). */
export type CustomPermission = PermissionEntry & { custom: true; grants: string; created_at: string; updated_at: string };

export function createAccessControlStore(db: Db) {
  const roles = db.prepare<[], RoleRow>('SELECT * FROM roles ORDER BY name');
  const addRole = db.prepare('INSERT OR IGNORE INTO roles (name, created_at, updated_at) VALUES (?, ?, ?)');
  const removeRole = db.prepare('DELETE FROM roles WHERE name = ?');
  const roleUses = db.prepare<[string, string], { n: number }>(
    'SELECT (SELECT COUNT(*) FROM users WHERE role = ?) + (SELECT COUNT(*) FROM members WHERE channel_role = ?) AS n',
  );
  const permissions = db.prepare<[], { data: string }>('SELECT data FROM permissions ORDER BY id');
  const onePermission = db.prepare<[string], { data: string }>('SELECT data FROM permissions WHERE id = ?');
  const putPermission = db.prepare(
    `INSERT INTO permissions (id, data, created_at, updated_at) VALUES (@id, @data, @now, @now)
     ON CONFLICT (id) DO UPDATE SET data = @data, updated_at = @now`,
  );
  const removePermission = db.prepare('DELETE FROM permissions WHERE id = ?');
  // The policy reads custom permissions on every request: keep them in memory.
  let customPermissions = permissions.all().map((row) => JSON.parse(row.data) as CustomPermission);
  const reload = () => {
    customPermissions = permissions.all().map((row) => JSON.parse(row.data) as CustomPermission);
  };

  return {
    roles: (): RoleRow[] => roles.all(),
    addRole: (name: string, now: string): boolean => addRole.run(name, now, now).changes > 0,
    removeRole: (name: string): boolean => removeRole.run(name).changes > 0,
    roleInUse: (name: string): boolean => (roleUses.get(name, name)?.n ?? 0) > 0,
    permissions: (): CustomPermission[] => customPermissions,
    permission(id: string): CustomPermission | undefined {
      const row = onePermission.get(id);
      return row ? (JSON.parse(row.data) as CustomPermission) : undefined;
    },
    putPermission(permission: CustomPermission): void {
      putPermission.run({ id: permission.id, data: JSON.stringify(permission), now: permission.updated_at });
      reload();
    },
    removePermission(id: string): boolean {
      const removed = removePermission.run(id).changes > 0;
      reload();
      return removed;
    },
  };
}
