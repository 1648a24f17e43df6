import { createWriteStream } from 'node:fs';
import { seededRandom } from '../../server/engines/seeded-random';

/** The benchmark's CSV, shared by profile.ts and whole.ts. */
/** Writes `rows` rows: id, date (daily, 8 regions per day), region, sector, 5 numeric columns. */
export async function generate(file: string, rows: number): Promise<void> {
  const random = seededRandom(1);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const regions = ['North', 'South', 'East', 'West', 'Centre', 'Coast', 'Hills', 'Islands'];
  const out = createWriteStream(file);
  const write = (s: string) =>
    out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r()));
  await write('id,date,region,sector,gdp,inflation,unemployment,trade,firms\n');
  const start = Date.UTC(2000, 0, 1);
  let buf = '';
  for (let i = 0; i < rows; i++) {
    const day = Math.floor(i / regions.length);
    const date = new Date(start + day * 86_400_000).toISOString().slice(0, 10);
    const gdp = Math.exp(3 + 0.8 * normal());
    const inflation = 2 + 1.5 * normal();
    const unemployment = random() < 0.02 ? '' : (6 + 2 * normal()).toFixed(3);
    const trade = (0.6 * gdp + 5 * normal()).toFixed(4);
    const firms = random() < 0.3 ? 0 : Math.floor(random() * 40);
    buf += `${i},${date},${regions[i % regions.length]},S${Math.floor(random() * 50)},${gdp.toFixed(4)},${inflation.toFixed(4)},${unemployment},${trade},${firms}\n`;
    if (buf.length > 1 << 20) {
      await write(buf);
      buf = '';
    }
  }
  await write(buf);
  await new Promise<void>((r) => out.end(() => r()));
}
