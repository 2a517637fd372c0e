// `notify="sound"`: a message from someone else, while the visitor is away, chimes once; their own
// messages and those of a conversation they muted do not.
import { renderHook } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { useNotify } from '../../../src/ui/notify/use-notify';

vi.mock('../../../src/browser/chime', () => ({ chime: vi.fn() }));
const { chime } = await import('../../../src/browser/chime');

type Handler = (event: object) => void;

function fakeClient() {
  const handlers = new Map<string, Handler>();
  const client = {
    userID: 'visitor',
    mutedChannels: [] as Array<{ channel?: { cid: string }; expires?: string }>,
    on: (type: string, handler: Handler) => {
      handlers.set(type, handler);
      return { unsubscribe: () => handlers.delete(type) };
    },
  };
  return { client, fire: (type: string, event: object) => handlers.get(type)?.(event) };
}

describe('the chime', () => {
  it('sounds for others\' messages while the panel is closed, not for the visitor\'s own or a muted conversation\'s', () => {
    const { client, fire } = fakeClient();
    renderHook(() => useNotify(client as never, { title: false, sound: true }, 0, false));
    fire('message.new', { cid: 'messaging:support', message: { id: 'm1' }, user: { id: 'agent' } });
    expect(chime).toHaveBeenLastCalledWith('m1');
    fire('message.new', { cid: 'messaging:support', message: { id: 'm2' }, user: { id: 'visitor' } });
    client.mutedChannels = [{ channel: { cid: 'messaging:quiet' } }];
    fire('notification.message_new', { cid: 'messaging:quiet', message: { id: 'm3' }, user: { id: 'agent' } });
    // A mute that has run out no longer silences.
    client.mutedChannels = [{ channel: { cid: 'messaging:quiet' }, expires: new Date(Date.now() - 1000).toISOString() }];
    fire('notification.message_new', { cid: 'messaging:quiet', message: { id: 'm4' }, user: { id: 'agent' } });
    expect(vi.mocked(chime).mock.calls.map(([id]) => id)).toEqual(['m1', 'm4']);
  });

  it('stays silent while the panel is open and the page visible', () => {
    vi.mocked(chime).mockClear();
    const { client, fire } = fakeClient();
    renderHook(() => useNotify(client as never, { title: false, sound: true }, 0, true));
    fire('message.new', { cid: 'messaging:support', message: { id: 'm5' }, user: { id: 'agent' } });
    expect(chime).not.toHaveBeenCalled();
  });
});
