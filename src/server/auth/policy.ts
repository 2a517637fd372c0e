// The one policy: "may this actor do this on this resource?" Every route asks it (through
// channel-access.ts for channels, `assertAppPermission` for app-wide actions), and
// `own_capabilities` is its answer listed, so a grant removed makes the capability disappear
// and the call fail together.
//
// How a decision is made:
// 1. Server-side calls (signed with the secret, whichever user they act for), and every call
//    while the app's `disable_permissions_checks` is on, are allowed.
// 2. The actor's roles are their global role plus, in a channel they belong to, their channel
//    role (`channel_member`, `channel_moderator`, or a custom one).
// 3. The channel type's permission rules, highest priority first: the first rule whose roles,
//    resources and owner flag match decides. `Deny` refuses; `Allow` hands the question to the
//    grants. The default set (allow-all 999, deny-all 1) therefore leaves everything to the grants;
//    a site owner adds a Deny rule above 999 to forbid something whatever the grants say.
// 4. The grants: allowed when one of the roles is granted the permission, or its `-owner`
//    variant when the actor owns the resource.
// Apart from permissions, it also decides who may aim an action at themselves (mayTargetSelf):
// a relation with oneself is not a matter of grants, so no setting changes it.
import type { Actor } from './actor';
import type { ChannelTypeSettings } from './channel-types';
import { actionName, CAPABILITIES, DEFAULT_APP_GRANTS, SIGNED_IN_ONLY } from './permissions';
import { ApiError } from '../http/errors';

export type PolicySettings = {
  disablePermissionsChecks: boolean;
  appGrants: Record<string, string[]>;
  /** Custom permission id → the built-in permission it stands for. */
  customPermissions: ReadonlyMap<string, string>;
};

export type ChannelScope = {
  type: ChannelTypeSettings;
  /** The actor's channel role when they are a member. */
  channelRole?: string | undefined;
  /** The actor created the channel. */
  ownsChannel: boolean;
};

function rolesOf(actor: Actor, scope?: ChannelScope): string[] {
  return scope?.channelRole ? [actor.role, scope.channelRole] : [actor.role];
}

function unrestricted(actor: Actor, settings: PolicySettings): boolean {
  return actor.server || settings.disablePermissionsChecks;
}

function granted(grants: Record<string, string[]>, roles: string[], permission: string, custom: ReadonlyMap<string, string>): boolean {
  // Role names are the app's to choose ("constructor" included): only a grant's own keys count.
  return roles.some((role) => Object.hasOwn(grants, role) && grants[role]?.some((id) => id === permission || custom.get(id) === permission) === true);
}

/**
 * A type's rules, highest priority first: sorted once per list (a type's list is replaced, not
 * changed, when the type is updated), since every capability of every request reads them.
 */
const rulesByPriority = new WeakMap<ChannelTypeSettings['permissions'], ChannelTypeSettings['permissions']>();

/** The rules' verdict: false when a Deny rule (or no rule) matches first. */
function rulesAllow(type: ChannelTypeSettings, roles: string[], permission: string, owner: boolean): boolean {
  const resource = actionName(permission);
  let rules = rulesByPriority.get(type.permissions);
  if (!rules) rulesByPriority.set(type.permissions, (rules = [...type.permissions].sort((a, b) => b.priority - a.priority)));
  for (const rule of rules) {
    if (!rule.roles.includes('*') && !rule.roles.some((role) => roles.includes(role))) continue;
    if (!rule.resources.includes('*') && !rule.resources.includes(resource) && !rule.resources.includes(permission)) continue;
    if (rule.owner && !owner) continue;
    return rule.action === 'Allow';
  }
  return false;
}

/**
 * Whether the actor may use `permission` in a channel of this scope. `ownsResource` says the
 * actor owns what the action is about (their own message); ownership of the channel is in the scope.
 */
export function allowedInChannel(
  actor: Actor,
  settings: PolicySettings,
  scope: ChannelScope,
  permission: string,
  ownsResource = scope.ownsChannel,
): boolean {
  if (unrestricted(actor, settings)) return true;
  const roles = rolesOf(actor, scope);
  if (!rulesAllow(scope.type, roles, permission, ownsResource)) return false;
  if (granted(scope.type.grants, roles, permission, settings.customPermissions)) return true;
  return ownsResource && granted(scope.type.grants, roles, `${permission}-owner`, settings.customPermissions);
}

/** `own_capabilities`: every capability whose permission the policy allows and whose feature is on. */
export function channelCapabilities(actor: Actor, settings: PolicySettings, scope: ChannelScope): string[] {
  return Object.keys(CAPABILITIES).filter((capability) => hasCapability(actor, settings, scope, capability));
}

/** One capability of channelCapabilities, asked alone (a send needs one, not the list). */
export function hasCapability(actor: Actor, settings: PolicySettings, scope: ChannelScope, capability: string): boolean {
  const need = Object.hasOwn(CAPABILITIES, capability) ? CAPABILITIES[capability] : undefined;
  if (!need) return false;
  const config = scope.type.config as unknown as Record<string, unknown>;
  if (need.feature && config[need.feature] !== true) return false;
  if (actor.anonymous && SIGNED_IN_ONLY.has(capability)) return false;
  // An `-owner` capability ("update own message") is about what the actor owns by definition.
  const ownVariant = need.permission.endsWith('-owner');
  const permission = ownVariant ? need.permission.slice(0, -'-owner'.length) : need.permission;
  const owns = ownVariant || (need.ownerVariant === true && scope.ownsChannel);
  return allowedInChannel(actor, settings, scope, permission, owns);
}

/** App-wide actions (updating users, banning from the app, reviewing flags…). */
export function allowedInApp(actor: Actor, settings: PolicySettings, permission: string, ownsResource = false): boolean {
  if (unrestricted(actor, settings)) return true;
  const grants = { ...DEFAULT_APP_GRANTS, ...settings.appGrants };
  if (granted(grants, [actor.role], permission, settings.customPermissions)) return true;
  return ownsResource && granted(grants, [actor.role], `${permission}-owner`, settings.customPermissions);
}

/** The provider's refusal: 403, code 17. */
export function notAllowed(actor: Actor, permission: string, scope: string): ApiError {
  return ApiError.notAllowed(
    `User '${actor.id ?? ''}' with role '${actor.role}' is not allowed to perform action ${actionName(permission)} in scope '${scope}'`,
  );
}

export function assertAppPermission(actor: Actor, settings: PolicySettings, permission: string, ownsResource = false): void {
  if (!allowedInApp(actor, settings, permission, ownsResource)) throw notAllowed(actor, permission, 'app');
}

/** Actions one user aims at another user or at their message. */
export type TargetedAction = 'flag-message' | 'flag-user' | 'mute-user' | 'block-user' | 'ban-user';

const SELF_REFUSALS: Record<TargetedAction, string> = {
  'flag-message': 'a user cannot flag their own message',
  'flag-user': 'a user cannot flag themselves',
  'mute-user': 'a user cannot mute themselves',
  'block-user': 'a user cannot block themselves',
  'ban-user': 'a user cannot ban or unban themselves',
};

/**
 * Whether the actor may aim the action at themselves (their own message, their own user). A
 * user reporting their own message makes no sense and is refused; the site owner's server speaks
 * for the app, and the provider lets it flag any message in a user's name, the user's own
 * included (its server SDKs flag a message in its author's name). Flagging, muting, blocking or
 * banning one's own user is a relation with nobody else, refused whoever asks: the provider
 * documents no exception for its server side.
 */
export function mayTargetSelf(actor: Actor, action: TargetedAction): boolean {
  return action === 'flag-message' && actor.server;
}

/** The provider's input error (400, code 4) when `targetUserId` is the actor and they may not aim at themselves. */
export function assertMayTarget(actor: Actor, action: TargetedAction, targetUserId: string): void {
  if (targetUserId === actor.id && !mayTargetSelf(actor, action)) throw ApiError.input(SELF_REFUSALS[action]);
}
