import { ChatSession, type SessionIdentity } from './chat-session';

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
  return Promise.all([...sessions.values()].filter((session) => session !== next && sameApp(session) && !session.held).map((session) => session.signOut()));
}
