import { describe, expect, it } from 'vitest';
import { attachmentHeader, decodeText, formatOfFileName, sanitizeFileName } from './files';

describe('document upload files', () => {
  it('reduces hostile names to a safe base name', () => {
    expect(sanitizeFileName('../../etc/passwd.md')).toBe('passwd.md');
    expect(sanitizeFileName('C:\\Users\\x\\report.txt')).toBe('report.txt');
    expect(sanitizeFileName('a\u0000b\u001fc.md')).toBe('abc.md');
    // A right-to-left override could make "evil\u202Edm.exe" look like "evilexe.md".
    expect(sanitizeFileName('evil\u202Edm.exe')).toBe('evildm.exe');
    expect(sanitizeFileName('...hidden.md')).toBe('hidden.md');
    expect(sanitizeFileName('$(rm -rf).md')).toBe('_(rm -rf).md');
    expect(sanitizeFileName(`${'x'.repeat(300)}.csv`)).toMatch(/^x+\.csv$/);
    expect(sanitizeFileName(`${'x'.repeat(300)}.csv`).length).toBe(200);
  });

  it('accepts only the listed formats', () => {
    expect(formatOfFileName('Notes.MD')).toBe('md');
    expect(formatOfFileName('refs.bib')).toBe('bib');
    expect(() => formatOfFileName('evildm.exe')).toThrow(/only \.md/);
    expect(() => formatOfFileName('noext')).toThrow(/only \.md/);
  });

  it('decodes UTF-8 text and refuses binary', () => {
    expect(decodeText(Buffer.from('\uFEFFhé', 'utf8'))).toBe('hé');
    expect(() => decodeText(Buffer.from([0xc3, 0x28]))).toThrow(/UTF-8/);
    expect(() => decodeText(Buffer.from('a\u0000b'))).toThrow(/binary/);
  });

  it('writes an attachment header with an ASCII fallback', () => {
    expect(attachmentHeader('Résumé', 'md')).toBe(
      `attachment; filename="R_sum_.md"; filename*=UTF-8''R%C3%A9sum%C3%A9.md`,
    );
    expect(attachmentHeader('data.csv', 'csv')).toContain('filename="data.csv"');
  });
});
