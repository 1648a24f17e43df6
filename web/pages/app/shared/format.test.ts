import { describe, expect, it } from 'vitest';
import { formatBytes, formatDate, humanize, truncate } from './format';

describe('truncate', () => {
  it('keeps text of at most 150 characters as it is', () => {
    const text = 'x'.repeat(150);
    expect(truncate(text)).toBe(text);
    expect(truncate('short')).toBe('short');
  });

  it('cuts longer text to 150 characters and an ellipsis', () => {
    const text = 'a'.repeat(149) + ' bcdef';
    const cut = truncate(text);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(151);
    expect(text.startsWith(cut.slice(0, -1))).toBe(true);
    // Trailing spaces before the ellipsis are dropped.
    expect(cut).toBe('a'.repeat(149) + '…');
  });
});

describe('formatters', () => {
  it('formats bytes', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
    expect(formatBytes(null)).toBe('—');
  });

  it('humanizes enum values and formats dates', () => {
    expect(humanize('waiting_for_input')).toBe('Waiting for input');
    expect(humanize('z-score')).toBe('Z score');
    expect(formatDate('2026-03-05T10:00:00Z')).toBe('5 Mar 2026');
    expect(formatDate(undefined)).toBe('—');
    expect(formatDate('1990Q1')).toBe('1990Q1');
  });
});
