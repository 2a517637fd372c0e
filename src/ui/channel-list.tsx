import { useEffect, useMemo } from 'react';
import type { Channel, ChannelManagerState, StreamChat } from 'stream-chat';
import type { ChannelRef } from '../element/attributes';
import { channelName } from '../session/channel-handle';
import { describeApiError } from '../session/session-error';
import { useStateStore } from '../session/use-state-store';
import { initial } from './format';
import { StatusView } from './status-view';

const selectChannels = (state: ChannelManagerState) => ({
  channels: state.channels,
  initialized: state.initialized,
  error: state.error,
});

function lastMessagePreview(channel: Channel): string {
  const last = channel.state.latestMessages.at(-1);
  if (!last) return 'No messages yet';
  if (last.type === 'deleted') return 'This message was deleted';
  return `${last.user?.name || last.user?.id || ''}: ${last.text ?? ''}`;
}

interface ChannelListProps {
  client: StreamChat;
  userId: string;
  onPick: (ref: ChannelRef) => void;
}

/**
 * The user's channels, newest activity first, kept live by the SDK's ChannelManager
 * (it reorders on new messages and adds channels the user is added to).
 */
export function ChannelList({ client, userId, onPick }: ChannelListProps) {
  const manager = useMemo(() => client.createChannelManager({}), [client]);
  const { channels, initialized, error } = useStateStore(manager.state, selectChannels);

  useEffect(() => {
    manager.registerSubscriptions();
    void manager.queryChannels({ members: { $in: [userId] } }, [{ last_message_at: -1 }], { limit: 30 });
    return () => {
      manager.unregisterSubscriptions();
    };
  }, [manager, userId]);

  if (error) {
    return (
      <StatusView
        tone="error"
        title="Your conversations could not be loaded."
        detail={`${describeApiError(error).text}.`}
        actionLabel="Try again"
        onAction={() => void manager.queryChannels({ members: { $in: [userId] } }, [{ last_message_at: -1 }], { limit: 30 })}
      />
    );
  }
  if (!initialized) return <StatusView tone="info" title="Loading conversations…" />;
  if (channels.length === 0) return <p className="empty">You have no conversations yet.</p>;
  return (
    <ul className="channel-list" part="channel-list" aria-label="Conversations">
      {channels.map((channel) => {
        const name = channelName(channel);
        const unread = channel.countUnread();
        return (
          <li key={channel.cid}>
            <button
              type="button"
              className="channel-item"
              part="channel-item"
              onClick={() => onPick({ type: channel.type, id: channel.id ?? '' })}
            >
              <span className="avatar" aria-hidden="true">
                {initial(name)}
              </span>
              <span className="channel-text">
                <span className="channel-name">{name}</span>
                <span className="channel-preview">{lastMessagePreview(channel)}</span>
              </span>
              {unread > 0 && <span className="badge inline-badge">{unread}</span>}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
