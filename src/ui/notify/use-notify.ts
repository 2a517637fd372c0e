// `notify="title sound"`: telling a visitor who is elsewhere (another tab, or the panel closed)
// that an answer came. The page's own `chat-widget-unread` event is unchanged.
import { useEffect, useRef, useState } from 'react';
import type { StreamChat } from 'stream-chat';
import { chime } from '../../browser/chime';
import { setTitleCount } from '../../browser/title-count';
import type { NotifyOptions } from '../../contract/attributes';

function usePageHidden(): boolean {
  const [hidden, setHidden] = useState(() => document.visibilityState === 'hidden');
  useEffect(() => {
    const update = () => setHidden(document.visibilityState === 'hidden');
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, []);
  return hidden;
}

export function useNotify(client: StreamChat, options: NotifyOptions, unread: number, panelShown: boolean) {
  const away = usePageHidden() || !panelShown;
  // The title counts while the visitor is away, and is the page's own again on their return.
  const owner = useRef({});
  useEffect(() => {
    setTitleCount(owner.current, options.title && away ? unread : 0);
  }, [options.title, away, unread]);
  useEffect(() => () => setTitleCount(owner.current, 0), []);

  const chimeWanted = useRef(false);
  chimeWanted.current = options.sound && away;
  useEffect(() => {
    const onMessage = (event: { cid?: string; message?: { id: string }; user?: { id: string } }) => {
      if (!chimeWanted.current || !event.message || event.user?.id === client.userID || isMuted(client, event.cid)) return;
      chime(event.message.id);
    };
    const subscriptions = [client.on('message.new', onMessage), client.on('notification.message_new', onMessage)];
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [client]);
}

/** Whether the visitor muted the conversation (a muted one makes no sound; its count does not rise). */
function isMuted(client: StreamChat, cid: string | undefined): boolean {
  if (!cid) return false;
  const now = Date.now();
  return client.mutedChannels.some((mute) => mute.channel?.cid === cid && (!mute.expires || new Date(mute.expires).getTime() > now));
}
