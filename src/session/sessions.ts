import { ChatSession, type SessionIdentity } from './chat-session';

// The only place a `stream-chat` client is created: one per identity per page.
const sessions = new Map<string, ChatSession>();

export function sessionFor(identity: SessionIdentity): ChatSession {
  // Every guest of one app in one browser is the same visitor, whatever name is shown.
  const key = JSON.stringify([identity.apiKey, identity.baseUrl, identity.tokenEndpoint ?? 'guest']);
  let session = sessions.get(key);
  if (!session) {
    session = new ChatSession(identity, () => sessions.delete(key));
    sessions.set(key, session);
  }
  return session;
}
