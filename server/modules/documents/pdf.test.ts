import { afterAll, describe, expect, it } from 'vitest';
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

describe('PDF text extraction in a worker thread', () => {
  it('returns the text of every page', async () => {
    const { text, pages } = await extractor.extract(PAPER);
    expect(pages).toBe(2);
    expect(text).toContain('county pairs across state borders.');
    expect(text).toContain('Results: elasticities near zero.');
    expect(text.indexOf('Abstract')).toBeLessThan(text.indexOf('Results'));
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
