// The PDF text extractor's child process (see pdf-text.ts). pdf.js parsing is CPU-bound and a
// hostile file may make it loop or allocate without end (a 2 MB file can inflate to gigabytes),
// so it runs in a process of its own whose address space the parent limits: whatever pdf.js
// allocates, heap or buffers, the limit holds, and the parent replaces the process when it fails.
// Plain JavaScript on purpose: the child is started with plain node, without the TypeScript
// loader the server runs under (tsx), and this file is small enough to need no types.
import { constants, inflateSync } from 'node:zlib';
import { getDocumentProxy } from 'unpdf';

/** @type {{ maxPages: number, maxInflatedBytes: number, maxTextBytes: number }} */
const limits = JSON.parse(process.argv[2] ?? '{}');

class Refusal extends Error {
  /** @param {string} reason @param {string} message */
  constructor(reason, message) {
    super(message);
    this.name = 'Refusal';
    this.reason = reason;
  }
}

const STREAM = Buffer.from('stream', 'latin1');
const ENDSTREAM = Buffer.from('endstream', 'latin1');

/**
 * Inflates every Flate-compressed stream of the file within one budget, before pdf.js sees it,
 * and refuses the file once their content passes maxInflatedBytes. pdf.js inflates streams as it
 * reads them and has no budget of its own. Streams under other filters (or chained behind one)
 * are not counted here; the address-space limit still holds for them.
 * @param {Uint8Array} bytes
 */
function checkInflatedSize(bytes) {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  let at = 0;
  while ((at = buf.indexOf(STREAM, at)) !== -1) {
    const keywordEnd = at + STREAM.length;
    // "endstream" holds "stream" too; a stream's data starts after an end of line.
    const isEnd = at >= 3 && buf.toString('latin1', at - 3, at) === 'end';
    let start = keywordEnd;
    if (buf[start] === 0x0d) start++;
    if (buf[start] === 0x0a) start++;
    if (isEnd || start === keywordEnd) {
      at = keywordEnd;
      continue;
    }
    const dict = buf.toString('latin1', Math.max(0, at - 4096), at);
    const own = dict.slice(dict.lastIndexOf('obj') + 1);
    const direct = /\/Length\s+(\d+)\b(?!\s+\d+\s+R)/.exec(own);
    let end = direct ? start + Number(direct[1]) : -1;
    if (end < start || end > buf.length) end = buf.indexOf(ENDSTREAM, start);
    if (end === -1) end = buf.length;
    if (/\/FlateDecode\b/.test(own)) {
      try {
        total += inflateSync(buf.subarray(start, end), {
          maxOutputLength: limits.maxInflatedBytes - total + 1,
          finishFlush: constants.Z_SYNC_FLUSH,
        }).length;
      } catch (error) {
        if (error && error.code === 'ERR_BUFFER_TOO_LARGE') total = limits.maxInflatedBytes + 1;
        // Otherwise a damaged stream: pdf.js decides what to do with it.
      }
      if (total > limits.maxInflatedBytes) {
        throw new Refusal('inflated', 'inflated content past the limit');
      }
    }
    at = Math.max(end, keywordEnd);
  }
}

/** @param {unknown} value */
const text = (value) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/** @param {Uint8Array} bytes */
async function extract(bytes) {
  checkInflatedSize(bytes);
  // No eval, no fonts from the file turned into code, no network for CMaps or fonts.
  const doc = await getDocumentProxy(bytes, {
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    // Missing-font notices are about rendering, not text.
    verbosity: 0,
  });
  try {
    if (doc.numPages > limits.maxPages) {
      throw new Refusal('pages', String(doc.numPages));
    }
    const pages = [];
    let size = 0;
    // One page after another (unpdf's extractText reads them all at once), so the text limit
    // stops the work as soon as it is passed.
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const pageText = content.items
        .filter((item) => 'str' in item && item.str != null)
        .map((item) => item.str + (item.hasEOL ? '\n' : ''))
        .join('');
      page.cleanup();
      size += Buffer.byteLength(pageText) + 2;
      if (size > limits.maxTextBytes) throw new Refusal('text', 'text past the limit');
      pages.push(pageText);
    }
    const meta = await doc.getMetadata().catch(() => ({ info: {} }));
    const info = /** @type {Record<string, unknown>} */ (meta.info ?? {});
    return {
      pages,
      info: { title: text(info.Title), author: text(info.Author), doi: text(info.doi) },
    };
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

process.on('message', (/** @type {{ id: number, bytes: Uint8Array }} */ job) => {
  // A plain Uint8Array view: pdf.js refuses Node's Buffer, which the channel may hand over.
  const bytes = new Uint8Array(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  extract(bytes).then(
    (result) => process.send?.({ id: job.id, ok: true, ...result }),
    (error) => {
      const name = error && typeof error === 'object' && 'name' in error ? String(error.name) : '';
      const message = error instanceof Error ? error.message : String(error);
      const reason = error instanceof Refusal ? error.reason : '';
      process.send?.({ id: job.id, ok: false, name, message, reason });
    },
  );
});
// The parent waits for this before it sends work: a failure before it is a failed start.
process.send?.({ ready: true });
// The parent's end of the channel closing means the server is gone: so is this process.
process.on('disconnect', () => process.exit(0));
