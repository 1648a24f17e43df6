import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, type TestApp } from '../../test/app';
import { deepJson, pdfBomb, wideJson } from '../../test/fixtures/hostile-files';
import { MULTIPART_HEADERS, multipartBody, type FilePart } from '../../test/multipart';

/**
 * The probe's small files that cost a parser gigabytes, sent to the upload routes of a whole
 * server: every one is refused with a 413 or 422 naming the limit, and the server's resident
 * memory stays under PROFILING_MEMORY_LIMIT plus MARGIN the whole time (measured as the peak the
 * kernel records, VmHWM, reset before the probes). Before the limits, the 10 KB JSON file nested
 * 5,000 deep took a server from 0.7 to 2.4 GB, 16 KB to 5.1 GB, and the PDF whose streams
 * inflate to 2 GiB grew it to 3.9 GB. The PDF is read in a child process: its peak is measured
 * apart, against PDF_MEMORY_LIMIT_MB.
 */

const MB = 1024 * 1024;
const PROFILING_MEMORY_LIMIT_MB = 512;
const PDF_MEMORY_LIMIT_MB = 256;
/**
 * What the server holds besides DuckDB's budget (documented in docs/security.md): Node and the
 * server's code, the embedded PGlite database (WebAssembly), and in this test vitest itself.
 */
const MARGIN_MB = 768;
/** Growth the probes may cause over the memory in use before them (buffers, the scan's names). */
const GROWTH_MB = 256;

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp({
    PROFILING_MEMORY_LIMIT: `${PROFILING_MEMORY_LIMIT_MB}MB`,
    PDF_MEMORY_LIMIT_MB: String(PDF_MEMORY_LIMIT_MB),
  });
  token = (await createUser(t.app)).accessToken;
});
afterAll(() => t.close());

const status = () => fs.readFileSync('/proc/self/status', 'utf8');
const kb = (text: string, field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);

/** Resets the kernel's record of this process's peak resident memory to what it holds now. */
function resetPeak(): void {
  fs.writeFileSync('/proc/self/clear_refs', '5');
}

/** Resident memory of this process's children (the PDF reader), summed, in MB. */
function childrenRssMb(): number {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      total += kb(fs.readFileSync(`/proc/${entry}/status`, 'utf8'), 'VmRSS') / 1024;
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}

async function upload(url: string, file: FilePart, fields: Record<string, string> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(token), ...MULTIPART_HEADERS },
    payload: multipartBody(fields, [file]),
  });
  return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown> };
}

const DATA_ROUTES = ['/api/agents/data-team/upload', '/api/agents/data-team/datasets/upload'];

describe('every probe input is refused within the memory budget', () => {
  it('keeps the server under PROFILING_MEMORY_LIMIT plus the margin for each of them', async () => {
    const probes: Array<{ what: string; run: () => Promise<void> }> = [];
    for (const url of DATA_ROUTES) {
      for (const [what, levels] of [
        ['deep JSON, 10 KB', 5000],
        ['deep JSON, 16 KB', 8000],
      ] as const) {
        probes.push({
          what: `${what} to ${url}`,
          run: async () => {
            const content = deepJson(levels);
            expect(content.length).toBeLessThan(17_000);
            const res = await upload(url, { name: 'deep.json', content });
            expect(res.status).toBe(422);
            expect(res.body.error).toMatch(/deeper than the limit of 32 levels/);
          },
        });
      }
      probes.push({
        what: `wide JSON (100,000 names in one record) to ${url}`,
        run: async () => {
          const res = await upload(url, { name: 'wide.json', content: wideJson(100_000) });
          expect(res.status).toBe(422);
          expect(res.body.error).toMatch(/more than the limit of 10000 distinct field names/);
        },
      });
    }
    let pdfChildPeakMb = 0;
    probes.push({
      what: 'a 2 MB PDF inflating to 2 GiB',
      run: async () => {
        const bomb = pdfBomb({ streams: 128, inflatedEach: 16 * MB });
        const sampler = setInterval(() => {
          pdfChildPeakMb = Math.max(pdfChildPeakMb, childrenRssMb());
        }, 20);
        try {
          const res = await upload(
            '/api/documents/upload',
            { name: 'paper.pdf', content: bomb, type: 'application/pdf' },
            { category: 'literature_review' },
          );
          expect(res.status).toBe(422);
          expect(res.body.error).toBe(
            "file: the PDF's compressed content unpacks to more than the limit of 256 MB",
          );
        } finally {
          clearInterval(sampler);
        }
      },
    });

    const before = status();
    const inUseMb = kb(before, 'VmRSS') / 1024;
    const report: string[] = [`before the probes: ${Math.round(inUseMb)} MB resident`];
    for (const probe of probes) {
      resetPeak();
      const started = Date.now();
      await probe.run();
      const peakMb = kb(status(), 'VmHWM') / 1024;
      report.push(`${probe.what}: peak ${Math.round(peakMb)} MB, ${Date.now() - started} ms`);
      expect(peakMb, probe.what).toBeLessThan(PROFILING_MEMORY_LIMIT_MB + MARGIN_MB);
      expect(peakMb - inUseMb, probe.what).toBeLessThan(GROWTH_MB);
    }
    report.push(`PDF reader's peak: ${Math.round(pdfChildPeakMb)} MB resident`);
    // Node's own resident memory (about 60 MB) on top of what the extraction may use.
    expect(pdfChildPeakMb).toBeLessThan(PDF_MEMORY_LIMIT_MB + 128);
    console.log(report.join('\n'));
  }, 180_000);
});
