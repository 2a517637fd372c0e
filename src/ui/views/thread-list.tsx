import { useEffect } from 'react';
import type { StreamChat, Thread, ThreadManagerState, ThreadState } from 'stream-chat';
import { useStateStore } from '../../session/use-state-store';
import { displayName } from '../common/format';
import { StatusView } from '../common/status-view';
import { useT } from '../common/localization';

const selectThreads = (state: ThreadManagerState) => ({ threads: state.threads, ready: state.ready, pagination: state.pagination });
const selectThread = (state: ThreadState) => ({ parent: state.parentMessage, replyCount: state.replyCount, read: state.read, channel: state.channel });

function ThreadRow({ thread, ownUserId, onOpen }: { thread: Thread; ownUserId: string | null; onOpen: (parentId: string) => void }) {
  const { parent, replyCount, read } = useStateStore(thread.state, selectThread);
  const unread = ownUserId ? (read[ownUserId]?.unreadMessageCount ?? 0) : 0;
  const t = useT();
  return (
    <li>
      <button type="button" className={`channel-item${unread ? ' unread' : ''}`} part="thread-item" onClick={() => onOpen(thread.id)}>
        <span className="channel-text">
          <span className="channel-name">{t('list.lastMessage', { name: displayName(parent.user), text: parent.text || t('threads.message') })}</span>
          <span className="channel-preview">{t('message.replies', { count: replyCount })}</span>
        </span>
        {unread > 0 && <span className="badge inline-badge" aria-label={t('list.unread', { count: unread })}>{unread}</span>}
      </button>
    </li>
  );
}

/** The user's threads (the SDK's ThreadManager: `POST /threads`), unread ones marked, for one channel. */
export function ThreadList({ client, cid, ownUserId, onOpen }: { client: StreamChat; cid: string; ownUserId: string | null; onOpen: (parentId: string) => void }) {
  const manager = client.threads;
  const { threads, ready, pagination } = useStateStore(manager.state, selectThreads);
  useEffect(() => {
    manager.registerSubscriptions();
    manager.activate();
    void manager.reload({ force: true });
    return () => manager.deactivate();
  }, [manager]);
  const t = useT();
  const here = threads.filter((thread) => thread.channel.cid === cid);
  if (!ready && pagination.isLoading) return <StatusView tone="info" title={t('threads.loading')} />;
  if (here.length === 0) return <p className="empty">{t('threads.empty')}</p>;
  return (
    <ul className="channel-list" part="thread-list" aria-label={t('panel.threads')}>
      {here.map((thread) => (
        <ThreadRow key={thread.id} thread={thread} ownUserId={ownUserId} onOpen={onOpen} />
      ))}
    </ul>
  );
}
