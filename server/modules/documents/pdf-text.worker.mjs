// The PDF text extractor's worker thread (see pdf.ts). pdf.js parsing is CPU-bound and a hostile
// file may make it loop or allocate without end, so it never runs on the request thread: pdf.ts
// sends the bytes here, bounds the time and the memory, and replaces this thread when it fails.
// Plain JavaScript on purpose: Node 20 starts a worker's entry file without the TypeScript
// loader the server runs under (tsx), and this file is small enough to need no types.
import { parentPort } from 'node:worker_threads';
import { extractText, getDocumentProxy } from 'unpdf';

/** @param {{ id: number, bytes: Uint8Array }} job */
async function extract({ id, bytes }) {
  let doc;
  try {
    // No eval, no fonts from the file turned into code, no network for CMaps or fonts.
    doc = await getDocumentProxy(bytes, {
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
      // Missing-font notices are about rendering, not text; they would fill the server log.
      verbosity: 0,
    });
    const { text, totalPages } = await extractText(doc, { mergePages: false });
    parentPort?.postMessage({ id, ok: true, pages: totalPages, text: text.join('\n\n') });
  } catch (error) {
    const name = error && typeof error === 'object' && 'name' in error ? String(error.name) : '';
    const message = error instanceof Error ? error.message : String(error);
    parentPort?.postMessage({ id, ok: false, name, message });
  } finally {
    await doc?.destroy().catch(() => undefined);
  }
}

parentPort?.on('message', (job) => void extract(job));
