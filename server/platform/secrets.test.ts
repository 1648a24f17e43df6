import { describe, expect, it } from 'vitest';
import { maskSecret } from './secrets';

describe('maskSecret', () => {
  it('shows at most the last 4 characters, and nothing of keys under 12 characters', () => {
    expect(maskSecret('sk-proj-abcdefghijklmnop1234')).toBe('••••••••1234');
    expect(maskSecret('abcdefghijkl')).toBe('••••••••ijkl');
    expect(maskSecret('abcdefghijk')).toBe('••••••••');
    expect(maskSecret('short')).toBe('••••••••');
    expect(maskSecret('')).toBe('••••••••');
  });

  it('never shows more than 4 characters of any key', () => {
    for (let n = 0; n < 200; n++) {
      const key = Array.from({ length: n }, (_, i) => String.fromCharCode(65 + (i % 26))).join('');
      const shown = maskSecret(key).replace(/•/g, '');
      expect(shown.length).toBeLessThanOrEqual(n < 12 ? 0 : 4);
      expect(key.endsWith(shown)).toBe(true);
    }
  });
});
