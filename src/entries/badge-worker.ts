// dist/chat-widget.badge.js: the returning visitor's badge client (element/badge-client.ts) in a
// worker of its own, which element/badge-host.ts starts beside the page. The page's main thread
// then pays for a few messages, not for the token request, the socket and every event.
import { BadgeClient, type FromBadge, type ToBadge } from '../element/badge-client';

let client: BadgeClient | null = null;
const say = (note: FromBadge) => self.postMessage(note);

self.onmessage = ({ data }: MessageEvent<ToBadge>) => {
  if ('start' in data) {
    client ??= new BadgeClient(data.start, {
      count: (count) => say({ count }),
      message: (message, own) => say({ message, own }),
      fallback: () => say({ fallback: true }),
    });
    client.start();
  } else if ('pause' in data) void (client?.pause() ?? Promise.resolve()).then(() => say({ left: data.pause }));
  else if ('resume' in data) client?.resume();
  else if ('stop' in data) void (client?.stop() ?? Promise.resolve()).then(() => say({ left: data.stop }));
};
