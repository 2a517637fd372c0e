import type { StreamChat } from 'stream-chat';

/** Whether the client's connection is live: its socket, its long-poll, or the one relayed from the tab holding it. */
export const isConnected = ({ wsConnection, wsFallback }: StreamChat): boolean => !!(wsConnection?.isHealthy || wsFallback?.isHealthy());
