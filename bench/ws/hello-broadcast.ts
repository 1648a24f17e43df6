/**
 * The fan-out benchmark's anchor: a bare `ws` server that, when asked over HTTP, sends one
 * message of a given size to every connected socket, in one loop, with the time it sent it.
 * What any Node WebSocket server on this machine needs to reach N clients, without our bus, hub
 * or database: bench/ws/fanout.ts measures it in the same run as ours.
 *
 *   PORT=... npx tsx bench/ws/hello-broadcast.ts   (POST /broadcast?bytes=600&count=8)
 *
 * `count` messages are sent back to back, as a phase's updates come in a burst.
 */
import http from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';

const port = Number(process.env.PORT ?? 0);
const clients = new Set<WebSocket>();

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method !== 'POST' || url.pathname !== '/broadcast') {
    res.writeHead(404).end();
    return;
  }
  const bytes = Number(url.searchParams.get('bytes') ?? 600);
  const count = Number(url.searchParams.get('count') ?? 1);
  for (let i = 0; i < count; i++) broadcast(bytes, i);
  res.writeHead(204).end();
});

/** One message to every socket; `seq` makes each message of a burst distinct. */
function broadcast(bytes: number, seq: number): void {
  // Serialised once, the same bytes written to every socket, as the product's hub does.
  const message = (text: string) =>
    JSON.stringify({
      type: 'session-update',
      updateType: 'log_update',
      timestamp: new Date().toISOString(),
      data: { seq, message: text },
    });
  const payload = message('x'.repeat(Math.max(0, bytes - message('').length)));
  for (const ws of clients) ws.send(payload);
}
const wss = new WebSocketServer({ server, path: '/ws' });
wss.on('connection', (ws) => {
  clients.add(ws);
  ws.on('close', () => clients.delete(ws));
  ws.send(JSON.stringify({ type: 'subscribed' }));
});
server.listen(port, '127.0.0.1', () => console.log('hello-broadcast listening'));
