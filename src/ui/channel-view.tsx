import type { ChannelHandle, ChannelViewState, SendResult } from '../session/channel-handle';
import { useStateStore } from '../session/use-state-store';
import { Composer } from './composer';
import { MessageList } from './message-list';
import { StatusView } from './status-view';

const selectStatus = (state: ChannelViewState) => ({ status: state.status, error: state.error });

interface ChannelViewProps {
  handle: ChannelHandle;
  ownUserId: string | null;
  offline: boolean;
  onSendResult: (result: SendResult) => void;
}

export function ChannelView({ handle, ownUserId, offline, onSendResult }: ChannelViewProps) {
  const { status, error } = useStateStore(handle.state, selectStatus);
  if (status === 'error') {
    return (
      <StatusView
        tone="error"
        title="This conversation could not be opened."
        detail={error?.message}
        actionLabel="Try again"
        onAction={() => void handle.load()}
      />
    );
  }
  if (status !== 'ready') return <StatusView tone="info" title="Loading messages…" />;
  return (
    <>
      <MessageList handle={handle} ownUserId={ownUserId} onSendResult={onSendResult} />
      <Composer handle={handle} disabled={offline} onSendResult={onSendResult} />
    </>
  );
}
