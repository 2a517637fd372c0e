// The backend for tests/ui/backend-process.ts: starts on a free port, prints its URL, and stops
// when the test process closes its stdin (or goes away).
import { startServer } from '../../src/server/index';

const server = await startServer({ port: 0, ...JSON.parse(process.env.BACKEND_OPTIONS ?? '{}') });
process.stdout.write(`listening ${server.url}\n`);
process.stdin.resume();
process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
