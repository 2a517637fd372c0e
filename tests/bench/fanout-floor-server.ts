// The fan-out benchmark's floor: a bare `ws` server, in a child process of its own like the
// backend (fanout-server.ts), that does only what no chat server can avoid. Each
// `POST /send?id=…` puts the id into one frame template (the backend's own message.new frame,
// captured in the same run), encodes it once and writes that buffer to every socket. No
// handshake, no storage, no per-receiver work: what is left is the socket's own price.
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

type Request = { type: 'frame'; template: string; placeholder: string } | { type: 'cpu' } | { type: 'stop' };

let template = '';
let placeholder = '';
const server = createServer((request, response) => {
  const id = new URL(request.url ?? '/', 'http://floor').searchParams.get('id') ?? '';
  request.resume();
  request.on('end', () => {
    const bytes = Buffer.from(template.replaceAll(placeholder, id));
    for (const socket of sockets.clients) socket.send(bytes, { binary: false });
    response.writeHead(201, { 'content-type': 'application/json' }).end('{}');
  });
});
const sockets = new WebSocketServer({ server, perMessageDeflate: false });

const send = (message: unknown) => process.send?.(message);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  send({ type: 'ready', url: `http://127.0.0.1:${port}` });
});

const stop = () => {
  for (const socket of sockets.clients) socket.terminate();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2_000).unref();
};

process.on('message', (message: Request) => {
  if (message.type === 'frame') {
    template = message.template;
    placeholder = message.placeholder;
    send({ type: 'frame-set' });
  } else if (message.type === 'cpu') {
    const { user, system } = process.cpuUsage();
    send({ type: 'cpu', ms: (user + system) / 1000 });
  } else if (message.type === 'stop') {
    stop();
  }
});
process.on('disconnect', stop);
