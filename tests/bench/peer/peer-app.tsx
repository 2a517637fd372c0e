// The peer for the benchmarks: the smallest chat page made with GetStream's own
// `stream-chat-react` (Chat, Channel, Window, ChannelHeader, MessageList, MessageComposer,
// Thread and its stylesheet), bundled with React as it ships. To be a fair match for our
// closed bubble it renders only a launcher button at load and creates, connects and shows the
// chat on the first click, as our widget does; a page following GetStream's quick start
// (`useCreateChatClient` at mount) would connect at load instead.
//
// The page configures it with `window.PEER_CONFIG = { apiKey, baseURL, tokenEndpoint, channel }`;
// an empty baseURL means the page's own origin. With `connectAtLoad: true` it is that quick-start
// page (the returning-visitor benchmark): the launcher connects its client at mount, as the
// hook does once it has a user, and shows the unread count on itself; the panel then uses
// that client.
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { StreamChat, type Channel as StreamChannel } from 'stream-chat';
import { Channel, ChannelHeader, Chat, MessageComposer, MessageList, Thread, Window } from 'stream-chat-react';

type PeerConfig = { apiKey: string; baseURL: string; tokenEndpoint: string; channel: string; connectAtLoad?: boolean };
/** The launcher's client with connectAtLoad: connecting (null), connected, or failed. */
type AtLoad = { client: StreamChat } | { error: string } | null;

const config = (window as unknown as { PEER_CONFIG: PeerConfig }).PEER_CONFIG;

/** The token from the page's endpoint, then a new client connected with it; `created` gets the client before it connects. */
async function connect(created: (client: StreamChat) => void): Promise<StreamChat> {
  const response = await fetch(config.tokenEndpoint, { credentials: 'include' });
  const { token, user } = (await response.json()) as { token: string; user: { id: string; name?: string } };
  const client = new StreamChat(config.apiKey, { baseURL: config.baseURL || location.origin });
  created(client);
  await client.connectUser(user, token);
  return client;
}

function channelOf(client: StreamChat): StreamChannel {
  const [type = 'messaging', id = ''] = config.channel.split(':');
  return client.channel(type, id);
}

/** The chat, on the launcher's client when it connected at load (`atLoad`), else on a client of its own made at first open. */
function ChatPanel({ atLoad }: { atLoad?: AtLoad }) {
  const [state, setState] = useState<{ client: StreamChat; channel: StreamChannel } | { error: string } | null>(null);
  useEffect(() => {
    if (atLoad !== undefined) {
      // The launcher's client stays the launcher's: the panel only waits for it.
      if (atLoad) setState('error' in atLoad ? atLoad : { client: atLoad.client, channel: channelOf(atLoad.client) });
      return;
    }
    let client: StreamChat | undefined;
    connect((created) => (client = created))
      .then((connected) => setState({ client: connected, channel: channelOf(connected) }))
      .catch((error: Error) => setState({ error: error.message }));
    return () => void client?.disconnectUser();
  }, [atLoad]);
  if (!state) return <div className="peer-status">Connecting…</div>;
  if ('error' in state) return <div className="peer-status">{state.error}</div>;
  return (
    <Chat client={state.client}>
      <Channel channel={state.channel}>
        <Window>
          <ChannelHeader />
          <MessageList />
          <MessageComposer />
        </Window>
        <Thread />
      </Channel>
    </Chat>
  );
}

/**
 * With connectAtLoad, what `useCreateChatClient` does at mount (connect, then one state update
 * with the client) plus the badge a site would add: the unread count the connection reports,
 * kept current by the events that carry it. Without, nothing (undefined).
 */
function useClientAtLoad(): { atLoad: AtLoad | undefined; unread: number | undefined } {
  const [atLoad, setAtLoad] = useState<AtLoad | undefined>(config.connectAtLoad ? null : undefined);
  const [unread, setUnread] = useState<number>();
  useEffect(() => {
    if (!config.connectAtLoad) return;
    let client: StreamChat | undefined;
    let listening: { unsubscribe: () => void } | undefined;
    connect((created) => (client = created))
      .then((connected) => {
        setAtLoad({ client: connected });
        // The connection's own user (health.check's `me`), which carries the counts.
        const me = connected.user;
        setUnread(me && 'total_unread_count' in me ? me.total_unread_count : undefined);
        listening = connected.on((event) => {
          if (event.total_unread_count !== undefined) setUnread(event.total_unread_count);
        });
      })
      .catch((error: Error) => setAtLoad({ error: error.message }));
    return () => {
      listening?.unsubscribe();
      void client?.disconnectUser();
    };
  }, []);
  return { atLoad, unread };
}

function PeerWidget() {
  const [open, setOpen] = useState(false);
  const { atLoad, unread } = useClientAtLoad();
  return (
    <>
      {open && (
        <div className="peer-panel" style={{ position: 'fixed', right: 20, bottom: 90, width: 380, height: 560, display: 'flex' }}>
          <ChatPanel atLoad={atLoad} />
        </div>
      )}
      <button
        type="button"
        className="peer-launcher"
        aria-label={open ? 'Close chat' : unread ? `Open chat, ${unread} unread` : 'Open chat'}
        onClick={() => setOpen(!open)}
        style={{ position: 'fixed', right: 20, bottom: 20, width: 56, height: 56, borderRadius: 28, border: 0, background: '#005fff', color: '#fff' }}
      >
        Chat
        {unread ? (
          <span className="peer-unread" style={{ position: 'absolute', top: -4, right: -4, minWidth: 20, borderRadius: 10, background: '#e0245e', fontSize: 12, lineHeight: '20px' }}>
            {unread}
          </span>
        ) : null}
      </button>
    </>
  );
}

const host = document.createElement('div');
host.id = 'peer-chat';
document.body.append(host);
createRoot(host).render(<PeerWidget />);
