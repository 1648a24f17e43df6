/**
 * PDF text extraction for document uploads (server/modules/documents/pdf.ts, reading in the child
 * process of server/platform/pdf-text.ts): time per file for a cold process (first upload after
 * idle) and a warm one, for generated papers of 1, 20 and 200 pages, and the longest stall of the
 * main thread's event loop meanwhile (what other requests would wait; the extraction runs in
 * another process, so it stays small), against the same extraction on the main thread for
 * comparison.
 *
 *   npx tsx bench/pdf-extract.ts
 */
import { makePdf } from '../test/fixtures/literature-sources/pdf';
import { extractText, getDocumentProxy } from 'unpdf';
import { createPdfExtractor } from '../server/modules/documents/pdf';

function paper(pages: number): Uint8Array {
  return makePdf({
    pages: Array.from({ length: pages }, (_, p) =>
      Array.from(
        { length: 40 },
        (_, l) => `Page ${p + 1}, line ${l + 1}: estimates of the labour supply elasticity.`,
      ),
    ),
  });
}

/** The longest gap between ticks of a 2 ms timer while `run` goes: how long requests would wait. */
async function longestStall(run: () => Promise<void>): Promise<number> {
  let last = performance.now();
  let max = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    max = Math.max(max, now - last);
    last = now;
  }, 2);
  await run();
  clearInterval(timer);
  return Math.max(max, performance.now() - last);
}

for (const pages of [1, 20, 200]) {
  const bytes = paper(pages);
  const extractor = createPdfExtractor();
  let cold = 0;
  const warm: number[] = [];
  const stall = await longestStall(async () => {
    let t = performance.now();
    await extractor.extract(bytes);
    cold = performance.now() - t;
    for (let i = 0; i < 5; i++) {
      t = performance.now();
      await extractor.extract(bytes);
      warm.push(performance.now() - t);
    }
  });
  extractor.close();
  warm.sort((a, b) => a - b);
  console.log(
    `${String(pages).padStart(3)} pages, ${(bytes.length / 1024).toFixed(0).padStart(5)} KB: ` +
      `cold ${cold.toFixed(0)} ms, warm median ${warm[2]!.toFixed(0)} ms, ` +
      `longest main-thread stall ${stall.toFixed(0)} ms`,
  );
}

// For comparison: the same extraction on the main thread (what a request would have waited).
for (const pages of [20, 200]) {
  const bytes = paper(pages);
  const t = performance.now();
  const stall = await longestStall(async () => {
    const doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    await extractText(doc, { mergePages: true });
    await doc.destroy();
  });
  console.log(
    `${String(pages).padStart(3)} pages on the main thread: ${(performance.now() - t).toFixed(0)} ms, ` +
      `longest main-thread stall ${stall.toFixed(0)} ms`,
  );
}
