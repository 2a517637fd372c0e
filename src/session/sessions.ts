import { ChatSession, type SessionIdentity } from './chat-session';
import type { WidgetConfig } from '../contract/attributes';

// The only place a `stream-chat` client is created: one per identity per page.
const sessions = new Map<string, ChatSession>();

export function sessionFor(identity: SessionIdentity): ChatSession {
  // Every guest of one app in one browser is the same visitor, whatever name is shown.
  const key = JSON.stringify([identity.apiKey, identity.baseUrl, identity.tokenEndpoint ?? 'guest']);
  let session = sessions.get(key);
  if (!session) {
    const created: ChatSession = new ChatSession(identity, () => sessions.delete(key), () => signOutOthers(created));
    session = created;
    sessions.set(key, session);
  }
  return session;
}

/**
 * A new visitor of the same app (the site signed someone in or out, so the element's
 * identity changed): the sessions no element holds any more are signed out now, not after
 * their grace, and the new one connects only once they have disconnected.
 */
function signOutOthers(next: ChatSession): Promise<unknown> {
  const sameApp = (session: ChatSession) =>
    session.identity.apiKey === next.identity.apiKey && session.identity.baseUrl === next.identity.baseUrl;
  const others = () => [...sessions.values()].filter((session) => session !== next && sameApp(session));
  if (others().length === 0) return Promise.resolve();
  // The panels connect in a layout effect: a site that changes several elements' identity in one
  // task has re-rendered only the first of them yet. Their turn comes before the next task.
  return new Promise((resolve) => setTimeout(resolve)).then(() =>
    Promise.all(others().filter((session) => !session.held && !session.replacing).map((session) => session.signOut())),
  );
}

/**
 * The visitor reached for the launcher: the session the panel will use starts now (token and
 * socket), without a panel; `token` is the token endpoint's request if the element already sent
 * it. Resolves once the socket is under way (or the attempt failed). See ChatSession.prepare.
 */
export function prepareSession(config: WidgetConfig, token?: Promise<Response>): Promise<void> {
  const { apiKey, baseUrl, tokenEndpoint, userName } = config;
  return sessionFor({ apiKey, baseUrl, tokenEndpoint, userName }).prepare(token);
}
