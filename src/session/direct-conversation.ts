import type { StreamChat } from 'stream-chat';
import type { ChannelRef } from '../contract/attributes';

/**
 * Opens, or creates, the direct conversation of two people: the channel of a member list,
 * which has no id of its own until the backend gives it the one for that member set.
 */
export async function openDirectConversation(client: StreamChat, ownUserId: string, otherUserId: string): Promise<ChannelRef> {
  const channel = client.channel('messaging', { members: [ownUserId, otherUserId] });
  await channel.watch();
  return { type: channel.type, id: channel.id as string };
}
