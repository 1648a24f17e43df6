import { describe, expect, it } from 'vitest';
import { jelCode, looksLikeCode } from './metadata';

describe('looksLikeCode', () => {
  it('recognises program text in a metadata value', () => {
    for (const code of [
      'import numpy as np',
      'from sklearn.linear_model import LinearRegression',
      "df.groupby('year').mean()",
      'library(plm)',
      'x <- lm(y ~ x)',
      'def growth(x): return x',
      'wage = 10',
      'if (a == b) { return; }',
      '```python',
    ]) {
      expect(looksLikeCode(code), code).toBe(true);
    }
  });

  it('leaves words alone, including words that are also keywords', () => {
    for (const words of [
      'import tariffs and quotas',
      'minimum wage employment',
      'payments for ecosystem services',
      'J31 Wage Level and Structure',
      'difference-in-differences',
      'return migration',
      'R&D spillovers',
    ]) {
      expect(looksLikeCode(words), words).toBe(false);
    }
  });
});

describe('jelCode', () => {
  it('keeps codes with or without their names', () => {
    expect(jelCode('J31 Wage Level and Structure')).toBe('J31 Wage Level and Structure');
    expect(jelCode('Q57')).toBe('Q57');
    expect(jelCode('JEL: Q56 Environment and Development')).toBe('Q56 Environment and Development');
  });

  it('drops what is not a JEL code, code above all', () => {
    expect(jelCode('import numpy as np')).toBeUndefined();
    expect(jelCode('labour economics')).toBeUndefined();
    expect(jelCode('J31 = wages;')).toBeUndefined();
  });
});
