import { describe, expect, it } from 'vitest';
import { bibtexMonths } from './literature-citations';

describe('bibtexMonths', () => {
  it('writes the month as its BibTeX macro, whatever form citation-js gave it', () => {
    const entry = (month: string) =>
      `@article{Smith2020,\n\tauthor = {Smith, Ann},\n\tyear = {2020},\n\tmonth = ${month},\n\ttitle = {A title},\n}`;
    expect(bibtexMonths(entry('{jun 1}'))).toBe(entry('jun'));
    expect(bibtexMonths(entry('{6}'))).toBe(entry('jun'));
    expect(bibtexMonths(entry('{12}'))).toBe(entry('dec'));
    expect(bibtexMonths(entry('{September 30}'))).toBe(entry('sep'));
  });

  it('keeps what is not a month it can read, and other fields', () => {
    const text = '\tmonth = {13},\n\tnote = {month = {jun 1}},';
    expect(bibtexMonths(text)).toBe(text);
    expect(bibtexMonths('\tmonth = {jun 1}\n}')).toBe('\tmonth = jun\n}');
  });
});
