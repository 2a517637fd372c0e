// What this browser remembers between visits, per api key: the guest's id (so a
// returning guest sees their conversation), whether it ever connected (so the unread count
// can show on the bubble without a first-time visitor paying a connection), and the count
// last shown (drawn before the current one is known).

const key = (apiKey: string, what: 'guest-id' | 'session' | 'unread') => `chat-widget:${apiKey}:${what}`;

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
  /** The count last shown for this widget (`whose`: the identity and channel it counted), if any. */
  unread(apiKey: string, whose: string): number | null {
    try {
      const [owner, count] = JSON.parse(read(key(apiKey, 'unread')) ?? 'null') as [string, number];
      return owner === whose && Number.isInteger(count) && count >= 0 ? count : null;
    } catch {
      return null;
    }
  },
  rememberUnread: (apiKey: string, whose: string, count: number | null) =>
    write(key(apiKey, 'unread'), count === null ? null : JSON.stringify([whose, count])),
};

/** A guest id in Stream's id alphabet. */
export function newGuestId(): string {
  const random = globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
  return `guest-${random.replace(/-/g, '').slice(0, 20)}`;
}
