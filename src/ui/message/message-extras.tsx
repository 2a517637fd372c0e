import type { LocalMessage, SharedLocationResponse } from 'stream-chat';
import { MessageAttachments } from './attachments';
import { GiphyPreview, giphyPreviewOf } from './giphy';
import { MessagePoll } from './poll';
import { SharedLocation } from './shared-location';

/** Whether a message carries more than text: attachments, a poll or a shared location. */
export const hasExtras = (message: LocalMessage) =>
  Boolean(message.attachments?.length || message.poll_id || message.shared_location);

/** What a message carries besides its text, each as its own card under the bubble. */
export function MessageExtras({ message, own, canVote }: { message: LocalMessage; own: boolean; canVote: boolean }) {
  const giphy = giphyPreviewOf(message);
  return (
    <>
      {giphy ? <GiphyPreview message={message} attachment={giphy} /> : <MessageAttachments attachments={message.attachments} />}
      {message.poll_id && <MessagePoll messageId={message.id} pollId={message.poll_id} canVote={canVote} />}
      {message.shared_location && <SharedLocation location={message.shared_location as SharedLocationResponse} own={own} />}
    </>
  );
}
