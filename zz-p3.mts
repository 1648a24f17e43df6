import { PGlite } from '@electric-sql/pglite';
import fs from 'node:fs';
let t = performance.now(); let c = process.cpuUsage();
const lap = (l: string) => { const u = process.cpuUsage(c); console.log(l, 'wall', Math.round(performance.now() - t), 'cpu', Math.round((u.user+u.system)/1000)); t = performance.now(); c = process.cpuUsage(); };
const a = new PGlite(); await a.waitReady; lap('fresh1');
const b = new PGlite(); await b.waitReady; lap('fresh2');
const buf = fs.readFileSync('/tmp/fa/d.tar');
const x = new PGlite({ loadDataDir: new Blob([buf]) }); await x.waitReady; lap('load tar');
const y = await b.clone(); lap('clone');
