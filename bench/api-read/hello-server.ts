/**
 * The anchor of bench/api-read/api-read.ts: a bare Fastify hello world in a process of its own,
 * on the port given as the first argument.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
process.stdout.write('listening\n');
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
