// A local web site for the link preview tests, on 127.0.0.1 and a random port: pages with Open
// Graph, Twitter card or only <title> tags, a gzip page, redirects, an image, a PDF, a 50 MB
// page (streamed lazily, so only what is read is produced), and a page that never answers.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

const ARTICLE = `<!doctype html><html><head>
<title>Fallback title</title>
<meta property="og:title" content="Lighthouse &amp; Keepers">
<meta property="og:description" content="A short history of lighthouses.">
<meta property="og:image" content="/images/lighthouse.jpg">
<meta property="og:url" content="https://example.com/lighthouses">
<meta property="og:site_name" content="Coast Weekly">
<meta property="og:type" content="article">
<meta name="twitter:title" content="Twitter title, not used">
</head><body><h1>Lighthouses</h1><meta property="og:title" content="late tag, ignored"></body></html>`;

const TWITTER = `<html><head><title>  The   page title  </title>
<meta name="twitter:title" content="Card title"><meta name="twitter:description" content="Card text">
<meta name="twitter:image" content="https://cdn.example.com/card.png"></head><body></body></html>`;

const TITLE_ONLY = '<html><head><title>Just a title</title><meta name="description" content="Plain description"></head></html>';

export type Fixture = { url: string; close(): Promise<void>; bytesSentByHuge(): number };

export async function startFixture(): Promise<Fixture> {
  let hugeBytes = 0;
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const html = (body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(body);
    };
    switch (req.url) {
      case '/article':
        return html(ARTICLE);
      case '/twitter':
        return html(TWITTER);
      case '/title':
        return html(TITLE_ONLY);
      case '/gzip':
        return html(gzipSync(ARTICLE), { 'content-encoding': 'gzip' });
      case '/redirect':
        res.writeHead(302, { location: '/article' });
        return res.end();
      case '/loop':
        res.writeHead(301, { location: '/loop' });
        return res.end();
      case '/empty':
        return html('<html><head></head><body>nothing</body></html>');
      case '/photo.jpg':
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        return res.end(Buffer.alloc(100));
      case '/report.pdf':
        res.writeHead(200, { 'content-type': 'application/pdf' });
        return res.end('%PDF-1.7');
      case '/huge-declared':
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(50 * 1024 * 1024) });
        return res.write('<html>');
      case '/huge':
        return streamHuge(res, (n) => (hugeBytes += n));
      case '/hang':
        hanging.push(res);
        return;
      default:
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bytesSentByHuge: () => hugeBytes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** 50 MB of HTML without a content-length, written only as fast as the reader takes it. */
function streamHuge(res: ServerResponse, count: (n: number) => void): void {
  res.writeHead(200, { 'content-type': 'text/html' });
  const chunk = Buffer.alloc(64 * 1024, 'a');
  let left = 50 * 1024 * 1024;
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      left -= chunk.length;
      count(chunk.length);
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (left <= 0) res.end();
  };
  pump();
}
