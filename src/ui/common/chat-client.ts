import { createContext, useContext } from 'react';
import type { StreamChat } from 'stream-chat';

/** The session's client, for parts of a message that keep live state of their own (polls, live locations). */
export const ChatClientContext = createContext<StreamChat | null>(null);

export const useChatClient = () => useContext(ChatClientContext);
