import { saveBlob } from './saveFile';

/**
 * A drawn chart as a file: MUI X Charts draws an SVG, serialized here with the computed styles
 * written onto each element (the page's CSS does not travel with the file), the chart's title
 * above it and its legend below (MUI X draws the legend in HTML, outside the SVG). PNG: that
 * SVG drawn into a canvas at twice its size, on white.
 */

export interface LegendItem {
  label: string;
  color: string;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'stroke-linecap',
  'stroke-linejoin',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
  'visibility',
  'display',
] as const;

/** The chart's drawing: the largest SVG inside `root` (legend marks are small SVGs too). */
export function chartSvgIn(root: HTMLElement): SVGSVGElement | null {
  const area = (s: SVGSVGElement) => {
    const r = s.getBoundingClientRect();
    return r.width * r.height;
  };
  const svgs = [...root.querySelectorAll('svg')].filter((s) => area(s) > 2500);
  return svgs.sort((a, b) => area(b) - area(a))[0] ?? null;
}

function inlineStyles(source: Element, target: Element) {
  const style = getComputedStyle(source);
  const decl = STYLE_PROPS.map((p) => `${p}:${style.getPropertyValue(p)}`)
    .filter((d) => !d.endsWith(':'))
    .join(';');
  target.setAttribute('style', decl);
  const from = source.children;
  const to = target.children;
  for (let i = 0; i < from.length && i < to.length; i++) inlineStyles(from[i]!, to[i]!);
}

const text = (doc: Document, x: number, y: number, content: string, attrs: string) => {
  const t = doc.createElementNS(SVG_NS, 'text');
  t.setAttribute('x', String(x));
  t.setAttribute('y', String(y));
  t.setAttribute('style', attrs);
  t.textContent = content;
  return t;
};

/** The chart as a standalone SVG document (text), with its title and legend. */
export function chartSvgText(svg: SVGSVGElement, title: string, legend: LegendItem[]): string {
  const { width: w, height: h } = svg.getBoundingClientRect();
  const width = Math.max(1, Math.round(w));
  const height = Math.max(1, Math.round(h));
  const font = 'font-family:Roboto,Helvetica,Arial,sans-serif';
  const clone = svg.cloneNode(true) as SVGSVGElement;
  inlineStyles(svg, clone);
  clone.setAttribute('x', '0');
  clone.setAttribute('y', '32');
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  if (!clone.getAttribute('viewBox')) clone.setAttribute('viewBox', `0 0 ${width} ${height}`);

  // Legend rows: a swatch and the label, wrapped to the chart's width.
  const items: { x: number; row: number; item: LegendItem }[] = [];
  let x = 12;
  let row = 0;
  for (const item of legend) {
    const itemWidth = 22 + item.label.length * 7 + 16;
    if (x + itemWidth > width && x > 12) {
      x = 12;
      row++;
    }
    items.push({ x, row, item });
    x += itemWidth;
  }
  const legendHeight = legend.length > 0 ? (row + 1) * 20 + 8 : 0;
  const total = 32 + height + legendHeight;

  const doc = document.implementation.createDocument(SVG_NS, 'svg', null);
  const root = doc.documentElement as unknown as SVGSVGElement;
  root.setAttribute('width', String(width));
  root.setAttribute('height', String(total));
  root.setAttribute('viewBox', `0 0 ${width} ${total}`);
  const bg = doc.createElementNS(SVG_NS, 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', '#ffffff');
  root.appendChild(bg);
  root.appendChild(text(doc, 12, 22, title, `${font};font-size:15px;font-weight:500;fill:#000`));
  root.appendChild(doc.importNode(clone, true));
  for (const { x: ix, row: r, item } of items) {
    const y = 32 + height + 8 + r * 20;
    const mark = doc.createElementNS(SVG_NS, 'rect');
    mark.setAttribute('x', String(ix));
    mark.setAttribute('y', String(y + 3));
    mark.setAttribute('width', '14');
    mark.setAttribute('height', '10');
    mark.setAttribute('fill', item.color);
    root.appendChild(mark);
    root.appendChild(text(doc, ix + 20, y + 12, item.label, `${font};font-size:12px;fill:#000`));
  }
  return new XMLSerializer().serializeToString(root);
}

/** A file name from a chart's title: lowercase words joined by dashes. */
export function chartFileName(title: string, ext: 'svg' | 'png'): string {
  const base = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
  return `${base || 'chart'}.${ext}`;
}

export function downloadChartSvg(svgText: string, title: string): void {
  saveBlob(new Blob([svgText], { type: 'image/svg+xml' }), chartFileName(title, 'svg'));
}

/** Draws the SVG into a canvas (twice its size, on white) and saves it as PNG. */
export async function downloadChartPng(svgText: string, title: string): Promise<void> {
  const image = new Image();
  const loaded = new Promise<void>((resolve, reject) => {
    image.onload = () => resolve();
    image.onerror = () => reject(new Error('The chart could not be drawn as an image.'));
  });
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText)}`;
  await loaded;
  const scale = 2;
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(image.width * scale);
  canvas.height = Math.round(image.height * scale);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This browser cannot draw the chart as an image.');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('The chart could not be saved as PNG.');
  saveBlob(blob, chartFileName(title, 'png'));
}
