// Stand-ins for the push providers' HTTP APIs on localhost, recording what the backend sends:
// Firebase (its OAuth token endpoint and FCM v1's messages:send, over HTTP/1.1) and APNs
// (`/3/device/{token}`, over cleartext HTTP/2), plus the credentials to configure them with.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createHttp2Server, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';

export type Received = { path: string; headers: IncomingHttpHeaders; body: string; json: any };

/** Firebase: tokens at POST /token, sends at POST /v1/projects/{project}/messages:send. */
export async function firebaseReceiver() {
  const keys = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const sends: Received[] = [];
  const tokenRequests: Received[] = [];
  /** Device tokens FCM calls unregistered. */
  const unregistered = new Set<string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '';
      if (path === '/token') {
        tokenRequests.push({ path, headers: req.headers, body, json: Object.fromEntries(new URLSearchParams(body)) });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'fcm-access-token', expires_in: 3600, token_type: 'Bearer' }));
        return;
      }
      const json = JSON.parse(body);
      if (unregistered.has(json.message?.token)) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({
          error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND', details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' }] },
        }));
        return;
      }
      sends.push({ path, headers: req.headers, body, json });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: `projects/test-project/messages/${sends.length}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const credentials = JSON.stringify({
    type: 'service_account',
    project_id: 'test-project',
    client_email: 'push@test-project.iam.gserviceaccount.com',
    private_key: keys.privateKey,
    token_uri: `${url}/token`,
  });
  return {
    url,
    credentials,
    publicKey: keys.publicKey,
    sends,
    tokenRequests,
    unregistered,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** APNs over cleartext HTTP/2, with the ES256 key its provider tokens are signed with. */
export async function apnReceiver() {
  const keys = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const sends: Received[] = [];
  const server: Http2Server = createHttp2Server();
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      sends.push({ path: String(headers[':path']), headers: headers as IncomingHttpHeaders, body, json: JSON.parse(body) });
      stream.respond({ ':status': 200, 'apns-id': `id-${sends.length}` });
      stream.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    authKey: keys.privateKey,
    publicKey: keys.publicKey,
    sends,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Waits until `check` holds (polling), or fails after `timeoutMs`. */
export async function until(check: () => boolean, what: string, timeoutMs = 4000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
