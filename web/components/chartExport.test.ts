import { describe, expect, it } from 'vitest';
import type { ChartSpec } from '../../common/teams/data';
import { chartFileName, chartSvgIn, chartSvgText } from './chartExport';
import { isYearAxis } from './ChartView';

type LineSpec = Extract<ChartSpec, { kind: 'line' }>;
const line = (x: (string | number)[], xKind?: LineSpec['xKind']): LineSpec => ({
  id: 'l',
  kind: 'line',
  title: 't',
  description: '',
  xLabel: 'year',
  x,
  series: [],
  ...(xKind ? { xKind } : {}),
});

describe('year axes', () => {
  it('follows the server, else reads whole numbers from 1000 to 2999 as years', () => {
    expect(isYearAxis(line([1960, 1961], 'year'))).toBe(true);
    expect(isYearAxis(line([1960, 1961], 'number'))).toBe(false);
    expect(isYearAxis(line([1960, 2023]))).toBe(true);
    expect(isYearAxis(line([1960.5, 2023]))).toBe(false);
    expect(isYearAxis(line([10, 20]))).toBe(false);
    expect(isYearAxis(line(['1960Q1']))).toBe(false);
    expect(isYearAxis(line([]))).toBe(false);
  });
});

describe('chart export', () => {
  it('names the file after the title', () => {
    expect(chartFileName('value by year, one line per Country Name', 'png')).toBe(
      'value-by-year-one-line-per-country-name.png',
    );
    expect(chartFileName('!!!', 'svg')).toBe('chart.svg');
  });

  it('writes a standalone SVG with the title, the drawing and a legend', () => {
    const host = document.createElement('figure');
    host.innerHTML =
      '<svg viewBox="0 0 200 100"><text x="10" y="90">1960</text><path d="M0 0L10 10"/></svg>';
    document.body.appendChild(host);
    const svg = host.querySelector('svg')!;
    const text = chartSvgText(svg, 'GDP & growth <by year>', [
      { label: 'Japan', color: '#4e79a7' },
      { label: 'Brazil', color: '#f28e2b' },
    ]);
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    expect(doc.querySelector('parsererror')).toBeNull();
    const root = doc.documentElement;
    expect(root.namespaceURI).toBe('http://www.w3.org/2000/svg');
    const texts = [...root.querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toEqual(['GDP & growth <by year>', '1960', 'Japan', 'Brazil']);
    expect([...root.querySelectorAll('rect')].map((r) => r.getAttribute('fill'))).toEqual([
      '#ffffff',
      '#4e79a7',
      '#f28e2b',
    ]);
    expect(root.querySelector('svg path')?.getAttribute('d')).toBe('M0 0L10 10');
    host.remove();
  });

  it('finds no drawing in a figure without one large enough', () => {
    const host = document.createElement('div');
    host.innerHTML = '<svg width="10" height="10"></svg>';
    expect(chartSvgIn(host)).toBeNull();
  });
});
