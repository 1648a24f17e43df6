import {
  UNVERIFIED_FIGURE_MARK,
  type Paper,
  type Trend,
  type UnverifiedFigure,
} from '../../../../common/teams/literature';
import { expandCitationGroup, NUMBERED_CITATION } from '../../../sources/citation-gate';

/**
 * The figures of a report's prose (counts, growth rates, shares, years) checked against what the
 * session computed and retrieved: the trend table (OpenAlex counts by year, their windows, means
 * and growth rates) and the abstracts, titles and years of the works the sentence cites (or, for
 * a sentence citing none, the works its paragraph cites). A figure found in neither is marked
 * right after it with UNVERIFIED_FIGURE_MARK, and reported. A figure matches a source number it
 * rounds: "12" and "12.3" both match 12.34, "45%" matches a growth of 0.452.
 *
 * Not figures: whole numbers under 10 without a percent sign (enumerations, "two-stage"),
 * ordinals and decades ("20th", "1990s"), numbers inside words ("G7", "AR(1)" stays too),
 * citations, code, mathematics, links, DOIs, headings and the claim-check flags.
 */

export interface FigureSources {
  trends: readonly Trend[];
  papers: readonly Paper[];
  /** Text whose numbers the researcher wrote (the question, feedback): they count as known. */
  researcherText?: string;
  /** Years the search was limited to. */
  years?: readonly (number | undefined)[];
}

export interface FigureCheck {
  /** The text with each unverified figure marked. */
  markdown: string;
  /** Figures looked at. */
  checked: number;
  unverified: UnverifiedFigure[];
}

interface Known {
  numbers: number[];
  percents: number[];
  years: Set<number>;
}

const FIGURE =
  /(?<![\p{L}\p{N}_.,/\uE000-\uF8FF])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(\s?(?:%|percent\b|per cent\b|percentage points?\b))?(?![\p{L}\p{N}_]|[.,]\d)/gu;
const NUMBER_IN_TEXT = /(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(\s?(?:%|percent|per cent))?/g;

/** Every number in a text, and the ones written as percentages. */
function numbersIn(text: string): { numbers: number[]; percents: number[] } {
  const numbers: number[] = [];
  const percents: number[] = [];
  for (const m of text.matchAll(NUMBER_IN_TEXT)) {
    const value = Number(`${m[1]!.replace(/,/g, '')}${m[2] ? `.${m[2]}` : ''}`);
    if (!Number.isFinite(value)) continue;
    numbers.push(value);
    if (m[3]) percents.push(value);
  }
  return { numbers, percents };
}

function isYear(value: number, decimals: string | undefined, percent: boolean): boolean {
  return !decimals && !percent && Number.isInteger(value) && value >= 1500 && value <= 2100;
}

/** What the trend table computed: counts, years, means (in its descriptions) and growth. */
function trendKnowledge(trends: readonly Trend[]): Known {
  const known: Known = { numbers: [], percents: [], years: new Set() };
  for (const t of trends) {
    for (const c of t.counts) {
      known.years.add(c.year);
      known.numbers.push(c.count);
    }
    const fromText = numbersIn(t.description);
    known.numbers.push(...fromText.numbers);
    known.percents.push(...fromText.percents);
    for (const n of fromText.numbers) if (isYear(n, undefined, false)) known.years.add(n);
    if (t.growth !== null) {
      known.percents.push(Math.abs(t.growth * 100));
      // "three times as many" / "grew 3-fold": the ratio of the means.
      known.numbers.push(t.growth + 1, Math.abs(t.growth * 100));
    }
    const total = t.counts.reduce((n, c) => n + c.count, 0);
    known.numbers.push(total);
  }
  return known;
}

/** What the cited works say: numbers of their abstracts and titles, and their years. */
function worksKnowledge(works: readonly Paper[]): Known {
  const known: Known = { numbers: [], percents: [], years: new Set() };
  for (const w of works) {
    const fromText = numbersIn(`${w.title}\n${w.abstract}`);
    known.numbers.push(...fromText.numbers);
    known.percents.push(...fromText.percents);
    for (const n of fromText.numbers) if (isYear(n, undefined, false)) known.years.add(n);
    if (w.year) known.years.add(w.year);
  }
  return known;
}

/** Does the figure, as written with `decimals` digits, round one of the known values? */
function rounds(value: number, decimals: string | undefined, known: readonly number[]): boolean {
  const tolerance = 0.5 * 10 ** -(decimals?.length ?? 0) + 1e-9;
  return known.some((k) => Math.abs(Math.abs(k) - value) <= tolerance);
}

function verified(
  value: number,
  decimals: string | undefined,
  percent: boolean,
  sources: readonly Known[],
): boolean {
  if (isYear(value, decimals, percent)) return sources.some((s) => s.years.has(value));
  return sources.some((s) => rounds(value, decimals, percent ? s.percents : s.numbers));
}

/** Stretches of a sentence that hold no figure of the prose, hidden while it is read. */
const MASKED =
  /`[^`\n]*`|\$[^$\n]+\$|\*\*\[[^\]\n]*\]\*\*|\]\([^)\s]*\)|https?:\/\/\S+|\b10\.\d{4,9}\/\S+/g;

function mask(text: string): { masked: string; unmask: (s: string) => string } {
  const hidden: string[] = [];
  const hide = (m: string) => {
    hidden.push(m);
    return String.fromCharCode(0xe000 + hidden.length - 1);
  };
  const masked = text.replace(MASKED, hide).replace(NUMBERED_CITATION, hide);
  return {
    masked,
    unmask: (s) => s.replace(/[\uE000-\uF8FF]/g, (c) => hidden[c.charCodeAt(0) - 0xe000] ?? ''),
  };
}

function citedIn(text: string): number[] {
  return [...text.matchAll(NUMBERED_CITATION)].flatMap((m) => expandCitationGroup(m[1]!) ?? []);
}

/**
 * Sentence ends: after . ! ? (and a hidden flag after it) and before a capital, not after
 * "et al." or "e.g.".
 */
const SENTENCE_BREAK =
  /(?<!\bal\.|\be\.g\.|\bi\.e\.|\bcf\.)(?<=[.!?](?:\s*[\uE000-\uF8FF])*)(\s+)(?=[A-Z(])/;

export function checkFigures(markdown: string, sources: FigureSources): FigureCheck {
  const byNumber = new Map(sources.papers.map((p) => [p.number, p]));
  const global = trendKnowledge(sources.trends);
  global.numbers.push(sources.papers.length);
  const researcher = numbersIn(sources.researcherText ?? '');
  global.numbers.push(...researcher.numbers);
  global.percents.push(...researcher.percents);
  for (const n of researcher.numbers) if (isYear(n, undefined, false)) global.years.add(n);
  for (const y of sources.years ?? []) if (y) global.years.add(y);

  const unverified: UnverifiedFigure[] = [];
  let checked = 0;
  let inBlock = false;
  const lines = markdown.split('\n').map((line) => {
    const trimmed = line.trim();
    if (/^(```|\$\$)/.test(trimmed)) {
      if (!/^\$\$.*\$\$$/.test(trimmed) || trimmed === '$$') inBlock = !inBlock;
      return line;
    }
    if (inBlock || !trimmed || trimmed.startsWith('#')) return line;
    const lineWorks = citedIn(line);
    // Sentences are split with citations, flags and code hidden, so none of them splits one.
    const { masked, unmask } = mask(line);
    const parts = masked.split(SENTENCE_BREAK);
    const marked = parts.map((part, i) => {
      // Odd parts are the spaces between sentences.
      if (i % 2 === 1) return part;
      const original = unmask(part);
      const cited = citedIn(original);
      const works = (cited.length ? cited : lineWorks).flatMap((n) => byNumber.get(n) ?? []);
      const local = worksKnowledge(works);
      const sentence = original.replace(/\s*\*\*\[[^\]\n]*\]\*\*/g, '').trim();
      return part.replace(
        FIGURE,
        (match, digits: string, decimals: string | undefined, percentWord: string | undefined) => {
          const value = Number(`${digits.replace(/,/g, '')}${decimals ? `.${decimals}` : ''}`);
          const percent = percentWord !== undefined;
          if (!percent && !decimals && value < 10) return match;
          checked++;
          if (verified(value, decimals, percent, [global, local])) return match;
          unverified.push({ figure: match.trim(), sentence });
          return `${match} ${UNVERIFIED_FIGURE_MARK}`;
        },
      );
    });
    return unmask(marked.join(''));
  });
  return { markdown: lines.join('\n'), checked, unverified };
}
