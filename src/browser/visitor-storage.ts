// What this browser remembers between visits, per api key: the guest's id (so a
// returning guest sees their conversation) and whether it ever connected (so the
// unread count can show on the bubble without a first-time visitor paying a connection).

const key = (apiKey: string, what: 'guest-id' | 'session') => `chat-widget:${apiKey}:${what}`;

function read(name: string): string | null {
  try {
    return localStorage.getItem(name);
  } catch {
    return null; // storage disabled (private mode, sandboxed iframe): behave as a first visit
  }
}

function write(name: string, value: string | null) {
  try {
    if (value === null) localStorage.removeItem(name);
    else localStorage.setItem(name, value);
  } catch {
    // storage full or disabled: nothing to remember, nothing breaks
  }
}

export const visitorStorage = {
  guestId: (apiKey: string) => read(key(apiKey, 'guest-id')),
  rememberGuest: (apiKey: string, id: string) => write(key(apiKey, 'guest-id'), id),
  forgetGuest: (apiKey: string) => write(key(apiKey, 'guest-id'), null),
  hadSession: (apiKey: string) => read(key(apiKey, 'session')) === '1',
  rememberSession: (apiKey: string, had: boolean) => write(key(apiKey, 'session'), had ? '1' : null),
};

/** A guest id in Stream's id alphabet. */
export function newGuestId(): string {
  const random = globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
  return `guest-${random.replace(/-/g, '').slice(0, 20)}`;
}
