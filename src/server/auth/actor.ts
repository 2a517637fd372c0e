// Who a request acts as. A user token acts as its user; a server token acts as the user named in
// the request body (or as an all-powerful nobody when none is named); an anonymous visitor
// has an ephemeral id and no stored user.
import type { Subject } from './tokens';
import { ApiError } from '../http/errors';
import type { Store } from '../store/store';
import type { UserRow } from '../store/users';

export type Actor = {
  /** null only for server-side calls that name no user. */
  id: string | null;
  role: string;
  server: boolean;
  anonymous: boolean;
};

export type UserActor = Actor & { id: string };

/** A stored user acting for themselves (e.g. the receiver of an event). */
export function userActor(user: UserRow): UserActor {
  return { id: user.id, role: user.role, server: false, anonymous: false };
}

export function actorFor(store: Store, subject: Subject, actingUserId?: string): Actor {
  switch (subject.kind) {
    case 'user':
      return userActor(store.users.ensure(subject.userId));
    case 'anonymous':
      return { id: subject.userId ?? null, role: 'anonymous', server: false, anonymous: true };
    case 'server': {
      if (!actingUserId) return { id: null, role: 'admin', server: true, anonymous: false };
      const user = store.users.ensure(actingUserId);
      return { id: user.id, role: user.role, server: true, anonymous: false };
    }
  }
}

/** For actions that need a signed-in user behind them (sending, creating, reading state). */
export function requireUser(actor: Actor, action: string): UserActor {
  if (actor.anonymous) throw ApiError.notAllowed(`anonymous users are not allowed to ${action}`);
  if (actor.id === null) throw ApiError.input(`a user_id is required to ${action} with server-side auth`);
  return actor as UserActor;
}
