// The peer for the benchmarks: the smallest chat page made with GetStream's own
// `stream-chat-react` (Chat, Channel, Window, ChannelHeader, MessageList, MessageComposer,
// Thread and its stylesheet), bundled with React as it ships. To be a fair match for our
// closed bubble it renders only a launcher button at load and creates, connects and shows the
// chat on the first click, as our widget does; a page following GetStream's quick start
// (`useCreateChatClient` at mount) would connect at load instead.
//
// The page configures it with `window.PEER_CONFIG = { apiKey, baseURL, tokenEndpoint, channel }`;
// an empty baseURL means the page's own origin.
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { StreamChat, type Channel as StreamChannel } from 'stream-chat';
import { Channel, ChannelHeader, Chat, MessageComposer, MessageList, Thread, Window } from 'stream-chat-react';

type PeerConfig = { apiKey: string; baseURL: string; tokenEndpoint: string; channel: string };

const config = (window as unknown as { PEER_CONFIG: PeerConfig }).PEER_CONFIG;

function ChatPanel() {
  const [state, setState] = useState<{ client: StreamChat; channel: StreamChannel } | { error: string } | null>(null);
  useEffect(() => {
    let client: StreamChat | undefined;
    (async () => {
      const response = await fetch(config.tokenEndpoint, { credentials: 'include' });
      const { token, user } = (await response.json()) as { token: string; user: { id: string; name?: string } };
      client = new StreamChat(config.apiKey, { baseURL: config.baseURL || location.origin });
      await client.connectUser(user, token);
      const [type = 'messaging', id = ''] = config.channel.split(':');
      setState({ client, channel: client.channel(type, id) });
    })().catch((error: Error) => setState({ error: error.message }));
    return () => void client?.disconnectUser();
  }, []);
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

function PeerWidget() {
  const [open, setOpen] = useState(false);
  return (
    <>
      {open && (
        <div className="peer-panel" style={{ position: 'fixed', right: 20, bottom: 90, width: 380, height: 560, display: 'flex' }}>
          <ChatPanel />
        </div>
      )}
      <button
        type="button"
        className="peer-launcher"
        aria-label={open ? 'Close chat' : 'Open chat'}
        onClick={() => setOpen(!open)}
        style={{ position: 'fixed', right: 20, bottom: 20, width: 56, height: 56, borderRadius: 28, border: 0, background: '#005fff', color: '#fff' }}
      >
        Chat
      </button>
    </>
  );
}

const host = document.createElement('div');
host.id = 'peer-chat';
document.body.append(host);
createRoot(host).render(<PeerWidget />);
