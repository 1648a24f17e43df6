import { afterAll, describe, expect, it } from 'vitest';
import { pdfBomb } from '../../../test/fixtures/hostile-files';
import { makePdf } from '../../../test/fixtures/literature-sources/pdf';
import { AppError } from '../../platform/errors';
import { createPdfExtractor, looksLikePdf } from './pdf';

const extractor = createPdfExtractor();
afterAll(() => extractor.close());

const PAPER = makePdf({
  title: 'Minimum wages and teen employment',
  pages: [
    ['Minimum wages and teen employment', 'Abstract: county pairs across state borders.'],
    ['Results: elasticities near zero.', 'Tables follow.'],
  ],
});

async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('looksLikePdf', () => {
  it('checks the header, not the name', () => {
    expect(looksLikePdf(PAPER)).toBe(true);
    expect(looksLikePdf(Buffer.from('# Notes\n%PDF- in a text is not a header'))).toBe(false);
    expect(looksLikePdf(Buffer.concat([Buffer.from('\r\n  '), Buffer.from(PAPER)]))).toBe(true);
    expect(looksLikePdf(Buffer.concat([Buffer.from('MZ'), Buffer.from(PAPER)]))).toBe(false);
    expect(looksLikePdf(Buffer.from('%PDF'))).toBe(false);
    expect(looksLikePdf(new Uint8Array())).toBe(false);
  });
});

describe('PDF text extraction in a child process', () => {
  it('returns the text of every page', async () => {
    const { text, pages } = await extractor.extract(PAPER);
    expect(pages).toBe(2);
    expect(text).toContain('county pairs across state borders.');
    expect(text).toContain('Results: elasticities near zero.');
    expect(text.indexOf('Abstract')).toBeLessThan(text.indexOf('Results'));
    // A Node Buffer (as an upload arrives), even a view into a larger one, reads the same.
    const inside = Buffer.alloc(PAPER.length + 64);
    Buffer.from(PAPER).copy(inside, 32);
    const fromBuffer = await extractor.extract(inside.subarray(32, 32 + PAPER.length));
    expect(fromBuffer.text).toBe(text);
  });

  it('answers parallel uploads each with their own text', async () => {
    const other = makePdf({ pages: [['A second paper on housing supply.']] });
    const [a, b, c] = await Promise.all([
      extractor.extract(PAPER),
      extractor.extract(other),
      extractor.extract(PAPER),
    ]);
    expect(a.text).toContain('teen employment');
    expect(b.text).toContain('housing supply');
    expect(b.pages).toBe(1);
    expect(c.pages).toBe(2);
  });

  it('refuses a file that only starts like a PDF, and keeps working after it', async () => {
    const fake = Buffer.from('%PDF-1.7\nthis is not a PDF at all, just text\n%%EOF\n');
    const error = await failure(extractor.extract(fake));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/^file: the PDF could not be read/);
    expect((await extractor.extract(PAPER)).pages).toBe(2);
  });

  it('gives up on a file that takes too long, with a 422', async () => {
    const slow = createPdfExtractor({ timeoutMs: 1 });
    try {
      const error = await failure(slow.extract(PAPER));
      expect(error.status).toBe(422);
      expect(error.message).toMatch(/took longer than/);
    } finally {
      slow.close();
    }
  });
});

describe('PDF text extraction within its limits', () => {
  const MB = 1024 * 1024;

  it('refuses a 2 MB file that inflates to 2 GiB before pdf.js reads it, with a 422', async () => {
    const bomb = pdfBomb({ streams: 128, inflatedEach: 16 * MB });
    expect(bomb.length).toBeLessThan(3 * MB);
    const started = Date.now();
    const error = await failure(extractor.extract(bomb));
    expect(error.status).toBe(422);
    expect(error.message).toBe(
      "file: the PDF's compressed content unpacks to more than the limit of 256 MB",
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    expect((await extractor.extract(PAPER)).pages).toBe(2);
  });

  it('finds the end of streams whose length is an indirect reference', async () => {
    const bomb = pdfBomb({ streams: 12, inflatedEach: 16 * MB, indirectLength: true });
    const small = createPdfExtractor({ maxInflatedBytes: 64 * MB });
    try {
      const error = await failure(small.extract(bomb));
      expect(error.status).toBe(422);
      expect(error.message).toMatch(/unpacks to more than the limit of 64 MB/);
    } finally {
      small.close();
    }
  });

  it('stops at the address-space limit when the inflated size is not capped', async () => {
    const bomb = pdfBomb({ streams: 64, inflatedEach: 16 * MB });
    const tight = createPdfExtractor({ memoryMb: 128, maxInflatedBytes: Number.MAX_SAFE_INTEGER });
    try {
      const error = await failure(tight.extract(bomb));
      expect(error.status).toBe(422);
      expect(error.message).toBe(
        'file: the PDF needs more memory to read than the limit of 128 MB',
      );
      // A fresh process reads the next file.
      expect((await tight.extract(PAPER)).pages).toBe(2);
    } finally {
      tight.close();
    }
  }, 60_000);

  it('refuses more pages than the limit, and text larger than the limit', async () => {
    const few = createPdfExtractor({ maxPages: 1 });
    const short = createPdfExtractor({ maxTextBytes: 40 });
    try {
      const pages = await failure(few.extract(PAPER));
      expect(pages.status).toBe(422);
      expect(pages.message).toBe('file: the PDF has 2 pages; the limit is 1');
      const text = await failure(short.extract(PAPER));
      expect(text.status).toBe(413);
      expect(text.message).toMatch(/^file: the PDF's text is larger than the limit of/);
    } finally {
      few.close();
      short.close();
    }
  });
});
