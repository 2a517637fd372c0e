// The fan-out benchmark's watchers, in child processes of their own (fanout.ts forks a few):
// 1,000 watchers are 1,000 machines reading their sockets at the same time, and one process
// reading every socket in turn measured itself (about 14 µs a frame, so the last of a message's
// 1,000 frames was read some 14 ms after the first, in the bare floor's runs as much as ours).
//
// Each process connects its share of the watchers (ours: the SDK's handshake and the channel's
// watch; the floor's: a bare socket), notes on the shared monotonic clock (`now`) when each
// message.new arrives at each of them, and reports a message to the parent once its whole
// share has it: one IPC message per message, not one per frame.
import type WebSocket from 'ws';
import { api, connectBare, connectWatcher, lastFrame, now, pool, type Receiver } from './fanout';

type Command =
  | { type: 'ours'; wsBase: string; httpBase: string; channelId: string; userIds: string[]; concurrency: number }
  | { type: 'floor'; wsBase: string; count: number; concurrency: number }
  | { type: 'last' }
  | { type: 'clear' }
  | { type: 'stop' };

const send = (message: unknown) => process.send?.(message);
const sockets: WebSocket[] = [];
/** Per message in flight, its arrival times at this process's watchers so far. */
const arrivals = new Map<string, number[]>();
let share = 0;
let captured = false;

const receiver: Receiver = {
  receive(id, at, frame) {
    // The first message.new frame whole: the floor sends the same bytes.
    if (!captured) {
      captured = true;
      send({ type: 'captured', frame: frame.toString('utf8'), messageId: id });
    }
    let times = arrivals.get(id);
    if (!times) arrivals.set(id, (times = []));
    times.push(at);
    if (times.length < share) return;
    arrivals.delete(id);
    send({ type: 'got', id, times });
  },
};
const current = { current: receiver };

async function connect(command: Command & { type: 'ours' | 'floor' }) {
  if (command.type === 'ours') {
    share = command.userIds.length;
    await pool(command.userIds, command.concurrency, async (userId) => {
      const { socket, connectionId } = await connectWatcher(command.wsBase, userId, current);
      sockets.push(socket);
      await api(command.httpBase, `/channels/messaging/${command.channelId}/query`, userId, { watch: true, state: true }, connectionId);
    });
  } else {
    share = command.count;
    await pool(Array.from({ length: command.count }, (_, i) => i), command.concurrency, async () => void sockets.push(await connectBare(command.wsBase, current)));
  }
}

const stop = () => {
  for (const socket of sockets) socket.terminate();
  process.exit(0);
};

process.on('message', (command: Command) => {
  if (command.type === 'ours' || command.type === 'floor') {
    connect(command).then(
      () => send({ type: 'connected' }),
      (error: unknown) => send({ type: 'failed', message: (error as Error).message }),
    );
  } else if (command.type === 'last') {
    send({ type: 'last', at: lastFrame() });
  } else if (command.type === 'clear') {
    // A round timed out: what is still missing is forgotten, so a late frame does not count.
    arrivals.clear();
  } else if (command.type === 'stop') {
    stop();
  }
});
process.on('disconnect', stop);
send({ type: 'ready', now: now() });
