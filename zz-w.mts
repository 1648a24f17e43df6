import { PGlite } from '@electric-sql/pglite';
import fs from 'node:fs';
const buf = fs.readFileSync('/tmp/fa/small.tar');
const a = new PGlite({ loadDataDir: new Blob([buf]) }); await a.waitReady;
await a.exec("alter system set min_wal_size = '2MB'"); await a.exec("alter system set max_wal_size = '4MB'"); await a.exec('select pg_reload_conf()');
await a.exec('checkpoint'); await a.exec('checkpoint');
const d = await a.dumpDataDir('none'); console.log('size', d.size);
const b2 = Buffer.from(await d.arrayBuffer());
for (let i = 0; i < 3; i++) {
  const c0 = process.cpuUsage(); const t0 = performance.now();
  const c = new PGlite({ loadDataDir: new Blob([b2]) }); await c.waitReady;
  const u = process.cpuUsage(c0);
  console.log('load', Math.round(performance.now() - t0), 'cpu', Math.round((u.user + u.system) / 1000), (await c.query('select count(*) from users')).rows);
  await c.close();
}
