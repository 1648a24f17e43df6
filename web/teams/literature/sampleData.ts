import type { Paper, Reference, ResearchGap, Trend } from '../../../common/teams/literature';

/**
 * The built-in sample the screen falls back to when a literature call answers 404 (the server
 * does not have the team's calls). Everything here is illustrative and shown under a visible
 * "sample data" label: the papers are placeholders, not real works, and carry no identifiers.
 */

const paper = (number: number, title: string, year: number, method: string): Paper => ({
  number,
  title,
  authors: ['Sample Author', 'Second Sample'],
  abstract: `Sample abstract of placeholder paper ${number}; not a real work.`,
  key_insight: `Placeholder insight of sample paper ${number}.`,
  methodology: method,
  findings: `Placeholder findings of sample paper ${number}.`,
  year,
  published: String(year),
  source: 'library',
  sources: ['library'],
  sourceId: `sample-${number}`,
  extractedFrom: 'none',
});

export const SAMPLE_PAPERS: Paper[] = [
  paper(1, 'Sample paper: minimum wages and employment in a regional panel', 2015, 'Panel data'),
  paper(2, 'Sample paper: labour demand elasticities after wage floors', 2018, 'Meta-analysis'),
  paper(3, 'Sample paper: monopsony power and wage setting', 2021, 'Structural model'),
];

export const SAMPLE_GAPS: ResearchGap[] = [
  {
    gap_description: 'Sample gap: long-run effects of wage floors are rarely measured.',
    opportunity: 'Sample opportunity: long household panels.',
    recommendation: 'Sample recommendation: follow cohorts over a decade.',
    supporting_papers: [1, 2],
  },
];

export const SAMPLE_TRENDS: Trend[] = [
  {
    topic: 'Sample topic: monopsony in labour markets',
    description: 'Sample trend with made-up counts, for illustration only.',
    growth: 0.5,
    counts: [
      { year: 2019, count: 10 },
      { year: 2020, count: 12 },
      { year: 2021, count: 15 },
    ],
    kind: 'emerging',
  },
];

export const SAMPLE_REFERENCES: Reference[] = SAMPLE_PAPERS.map((p) => ({
  number: p.number,
  title: p.title,
  authors: p.authors,
  year: p.year,
  published: p.published,
  source: p.source,
  line: `Sample Author and Second Sample (${p.year}). ${p.title}. Sample data.`,
}));

export const SAMPLE_REPORT = [
  '# Sample literature review',
  '',
  '_This is built-in sample data shown because the server did not answer this call; it is not ' +
    'a review of real works._',
  '',
  '## Introduction',
  '',
  'A review would introduce the question here, citing retrieved works by number [1].',
  '',
  '## Thematic Synthesis',
  '',
  'Themes would be grouped here [2, 3].',
  '',
  '## Methods',
  '',
  'Methods would be compared here, e.g. an elasticity $\\varepsilon = \\frac{\\partial \\ln L}{\\partial \\ln w}$.',
  '',
  '## Gaps and Opportunities',
  '',
  'Gaps would be listed here [1].',
  '',
  '## Emerging Trends',
  '',
  'Trends from publication counts would be described here.',
  '',
  '## Conclusion',
  '',
  'A conclusion would follow.',
  '',
  '## References',
  '',
  ...SAMPLE_REFERENCES.map((r) => `- [${r.number}] ${r.line}`),
].join('\n');

export const SAMPLE_LOGS = [
  'Sample data: the server did not find this literature call (HTTP 404).',
  'Sample data: the papers, gaps, trends and report shown are placeholders.',
];
