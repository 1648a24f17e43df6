import { PGlite } from '@electric-sql/pglite';
import fs from 'node:fs';
const mode = process.argv[2];
let t = performance.now();
const lap = (l: string) => { console.log(l, Math.round(performance.now() - t)); t = performance.now(); };
if (mode === 'fresh') {
  const a = new PGlite(); await a.waitReady; lap('fresh1');
  await a.exec('create table x(a int)'); lap('ddl');
  const b = new PGlite(); await b.waitReady; lap('fresh2');
  const dn = await a.dumpDataDir('none'); lap('dump none ' + dn.size);
  fs.writeFileSync('/tmp/fa/d.tar', Buffer.from(await dn.arrayBuffer()));
  const dg = await a.dumpDataDir('gzip'); lap('dump gzip ' + dg.size);
  fs.writeFileSync('/tmp/fa/d.tgz', Buffer.from(await dg.arrayBuffer()));
} else {
  const f = mode === 'tar' ? '/tmp/fa/d.tar' : '/tmp/fa/d.tgz';
  const buf = fs.readFileSync(f); lap('read');
  const blob = new Blob([buf]);
  const c = new PGlite({ loadDataDir: blob }); await c.waitReady; lap('load1 ' + mode);
  console.log((await c.query('select count(*) from x')).rows);
  const c2 = new PGlite({ loadDataDir: new Blob([buf]) }); await c2.waitReady; lap('load2 ' + mode);
  const pm = await WebAssembly.compile(fs.readFileSync('node_modules/@electric-sql/pglite/dist/pglite.wasm')); lap('compile');
  const c3 = new PGlite({ loadDataDir: new Blob([buf]), pgliteWasmModule: pm }); await c3.waitReady; lap('load3 with module');
}
