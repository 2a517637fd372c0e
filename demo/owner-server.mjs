// A site owner's server code, run against the local backend: the same `stream-chat` package and
// calls as against Stream's hosted API, only `baseURL` differs. `npm start`, then
// `node demo/owner-server.mjs` (the development key and secret are the backend's defaults).
import { createServer } from 'node:http';
import { StreamChat } from 'stream-chat';

/** Users, a support channel with its agents, and a ban: what a shop's server does on its own. */
export async function setUpSupport(stream) {
  await stream.upsertUsers([
    { id: 'agent-sam', name: 'Sam (support)', role: 'admin' },
    { id: 'ann', name: 'Ann' },
    { id: 'spammer', name: 'Totally Legit' },
    { id: 'troll', name: 'Not A Troll' },
  ]);
  const support = stream.channel('messaging', 'support-ann', {
    name: 'Ann ↔ Support',
    members: ['ann', 'agent-sam'],
    created_by_id: 'agent-sam',
  });
  await support.create();
  await support.addModerators(['agent-sam']);
  await support.sendMessage({ text: 'Hi Ann, how can we help?', user_id: 'agent-sam' });
  // An hour's ban from every channel, with the reason the visitor is shown.
  await stream.banUser('spammer', { timeout: 60, reason: 'spam', banned_by_id: 'agent-sam' });
  // Tags to find the channel by, a channel muted for the agent for an hour (ms), two users muted
  // for Ann at once, and a draft reply waiting in the agent's composer.
  await support.addFilterTags(['vip']);
  await support.mute({ user_id: 'agent-sam', expiration: 60 * 60 * 1000 });
  await stream.post(`${stream.baseURL}/moderation/mute`, { target_ids: ['spammer', 'troll'], user_id: 'ann' });
  await support.createDraft({ text: 'We will call you back', user_id: 'agent-sam' });
  return support;
}

/** Receives webhooks: refuses any body whose X-Signature is not the app secret's HMAC. */
export function webhookHandler(stream, onEvent) {
  return (req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (!stream.verifyWebhook(body, req.headers['x-signature'] ?? '')) {
        res.writeHead(401).end('bad signature');
        return;
      }
      onEvent(JSON.parse(body.toString('utf8')));
      res.writeHead(200).end('ok');
    });
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const stream = new StreamChat(process.env.STREAM_API_KEY ?? 'chat-widget-dev', process.env.STREAM_API_SECRET ?? 'chat-widget-dev-secret-do-not-use-in-production', {
    baseURL: process.env.CHAT_API ?? 'http://127.0.0.1:8787',
  });
  const hooks = createServer(webhookHandler(stream, (event) => console.log('webhook:', event.type, event.cid ?? '')));
  hooks.listen(8788, '127.0.0.1', async () => {
    await stream.updateAppSettings({ webhook_url: 'http://127.0.0.1:8788/', webhook_events: [] });
    await setUpSupport(stream);
    console.log('Support channel ready; webhooks arrive on http://127.0.0.1:8788 (Ctrl+C to stop).');
  });
}
