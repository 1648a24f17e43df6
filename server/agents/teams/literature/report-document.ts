import {
  modelPassage,
  splitModelPassages,
  type ProvenanceItem,
} from '../../../../common/provenance';
import { trendName, type Paper, type Trend } from '../../../../common/teams/literature';
import type { WorkRecord } from '../../kit';

/**
 * The review as a document that says where each part came from: the model's prose, section by
 * section, inside the marker of a passage written by the model (common/provenance.ts); the
 * references (retrieved works) and the trend table (computed from OpenAlex counts) outside it.
 * The same origins, item by item, for the saved document's provenance.
 */

/** How a retrieved paper is recorded in the session, and named by its `reference:` item. */
export function paperRecord(p: Paper): WorkRecord {
  return {
    id: p.sourceId,
    source: p.source,
    doi: p.doi ?? null,
    title: p.title,
    authors: p.authors,
    year: p.year ?? null,
    number: p.number,
  };
}

/** 'Thematic Synthesis' -> 'thematic-synthesis' (a passage's key). */
export function passageKey(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'text'
  );
}

export interface MarkedReport {
  markdown: string;
  /** The passages marked, by their titles, in order. */
  passages: string[];
}

/**
 * The model's report body with each level-2 section's text marked as a passage written by the
 * model (the heading itself stays outside: the code asked for it). Text before the first
 * heading is a passage of its own.
 */
export function markModelSections(body: string): MarkedReport {
  const passages: string[] = [];
  const parts = body.split(/^(?=## )/m);
  const out = parts.map((part) => {
    const heading = /^## +(.+)$/m.exec(part);
    const title = heading && part.startsWith('## ') ? heading[1]!.trim() : 'Opening';
    const text = heading && part.startsWith('## ') ? part.slice(heading[0].length) : part;
    if (!text.trim()) return part.trimEnd();
    passages.push(title);
    const marked = modelPassage(title, text);
    return title === 'Opening' && !part.startsWith('## ') ? marked : `## ${title}\n\n${marked}`;
  });
  return { markdown: out.filter((p) => p.trim()).join('\n\n'), passages };
}

/** A report as the model sees it again (feedback): the markers and their notes taken out. */
export function plainReport(markdown: string): string {
  return splitModelPassages(markdown)
    .map((segment) => segment.text.trim())
    .filter(Boolean)
    .join('\n\n');
}

const percent = (growth: number | null) =>
  growth === null ? 'n/a' : `${growth >= 0 ? '+' : ''}${Math.round(growth * 100)}%`;

/** The computed trend table: each topic's growth and its OpenAlex works by year. */
export function trendTable(trends: readonly Trend[]): string {
  if (trends.length === 0) return '';
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
  const rows = trends.map((t) => {
    const counts = [...t.counts]
      .sort((a, b) => a.year - b.year)
      .map((c) => `${c.year}: ${c.count}`)
      .join(', ');
    return `| ${cell(trendName(t))} | ${t.kind} | ${percent(t.growth)} | ${counts || 'none'} |`;
  });
  return [
    '## Publication Trends (computed)',
    '',
    'Computed from OpenAlex counts of works by publication year; growth is the mean yearly count ' +
      'of the last three complete years over the mean of the eight years before, minus one.',
    '',
    '| Topic | Kind | Growth | Works by year |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/** The origin of each thing in the saved review. */
export function reportProvenanceItems(input: {
  cited: readonly Paper[];
  trends: readonly Trend[];
  passages: readonly string[];
}): ProvenanceItem[] {
  return [
    ...input.cited.map((p): ProvenanceItem => ({
      key: `reference:${p.sourceId}`,
      origin: 'retrieved',
      ref: p.doi ? `doi:${p.doi}` : `${p.source}:${p.sourceId}`,
    })),
    ...(input.trends.length
      ? [{ key: 'table:trends', origin: 'computed' as const, ref: 'openalex:counts-by-year' }]
      : []),
    ...input.passages.map((title): ProvenanceItem => ({
      key: `passage:${passageKey(title)}`,
      origin: 'model',
    })),
  ];
}
