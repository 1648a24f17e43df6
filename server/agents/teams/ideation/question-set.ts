import { modelPassage, type ProvenanceItem } from '../../../../common/provenance';
import {
  NOT_SUPPLIED_BY_MODEL,
  type FinalQuestion,
  type IdeationInput,
  type TrendsResult,
} from '../../../../common/teams/ideation';
import { growthText } from './trend-discovery';

/**
 * The session's final questions as a document, each part saying where it came from: the
 * grounding (works retrieved from OpenAlex, counts computed from it) as it was retrieved, the
 * questions, theories, contexts and justifications inside the marker of a passage written by
 * the model (common/provenance.ts). The same origins, item by item, for its provenance.
 */

const n = (x: number) => x.toLocaleString('en-US');
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

export function questionSetName(input: IdeationInput): string {
  if (input.mode === 'automatic') return 'Research questions: trend-driven discovery';
  const idea = input.idea.replace(/\s+/g, ' ').trim();
  return `Research questions: ${idea.length > 120 ? `${idea.slice(0, 119)}…` : idea}`;
}

function topicsTable(trends: TrendsResult): string[] {
  const [r0, r1] = trends.recentYears;
  const [b0, b1] = trends.baselineYears;
  return [
    '## Trending topics (computed)',
    '',
    `Works of the field ${trends.field} in OpenAlex by topic, ${r0}-${r1} against ${b0}-${b1}.`,
    '',
    `| Topic | OpenAlex id | Works ${r0}-${r1} | Works ${b0}-${b1} | Growth |`,
    '| --- | --- | --- | --- | --- |',
    ...trends.topics.map(
      (t) =>
        `| ${cell(t.label)} | ${t.id} | ${n(t.recentCount)} | ${n(t.baselineCount)} | ${growthText(t.growth)} |`,
    ),
    '',
  ];
}

function questionBlock(q: FinalQuestion): string[] {
  const g = q.grounding;
  const counts = g.countsByYear.map((c) => `${c.year}: ${n(c.count)}`).join(', ');
  const works = g.works.map((w) => {
    const parts = [`[${w.key}] ${w.title}${w.year ? ` (${w.year})` : ''}`];
    if (w.authors.length) parts.push(w.authors.join(', '));
    parts.push(`OpenAlex ${w.openalexId}`);
    if (w.doi) parts.push(`https://doi.org/${w.doi}`);
    return `- ${parts.join('. ')}`;
  });
  const theory = [
    q.theory ? `**Theory:** ${q.theory}.` : NOT_SUPPLIED_BY_MODEL.theory,
    q.context || NOT_SUPPLIED_BY_MODEL.context,
  ].join(' ');
  return [
    `## ${q.rank}. ${q.question}`,
    '',
    q.modelGaps.includes('ranking') ? `_${NOT_SUPPLIED_BY_MODEL.ranking}_\n` : '',
    `**Grounding (retrieved from OpenAlex):** ${n(g.totalWorks)} works match “${g.searchQuery}” (${g.novelty}).` +
      (counts ? ` Works by year: ${counts}.` : ''),
    '',
    ...(works.length ? works : ['- OpenAlex returned no works for this search.']),
    '',
    modelPassage(`Theory and context of question ${q.rank}`, theory),
    '',
    q.justification
      ? modelPassage(`Justification of question ${q.rank}`, q.justification)
      : `_${NOT_SUPPLIED_BY_MODEL.justification}_`,
    '',
  ].filter((line, i, all) => !(line === '' && all[i - 1] === ''));
}

/** The question set as Markdown. */
export function questionSetMarkdown(input: {
  name: string;
  questions: readonly FinalQuestion[];
  trends: TrendsResult | undefined;
}): string {
  const lines = [
    `# ${input.name}`,
    '',
    'Ranked by the Ideation team. The questions, theories and justifications were written by ' +
      'the model; the works were retrieved from OpenAlex in the session and the counts computed ' +
      'from its answers.',
    '',
    ...(input.trends && input.trends.topics.length ? topicsTable(input.trends) : []),
    ...input.questions.flatMap(questionBlock),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}

/** The origin of each thing in the saved question set. */
export function questionSetItems(
  questions: readonly FinalQuestion[],
  trends: TrendsResult | undefined,
): ProvenanceItem[] {
  const items: ProvenanceItem[] = [];
  const seen = new Set<string>();
  if (trends && trends.topics.length)
    items.push({
      key: 'table:trending-topics',
      origin: 'computed',
      ref: 'openalex:group-by-topic',
    });
  for (const q of questions) {
    for (const w of q.grounding.works) {
      if (seen.has(w.openalexId)) continue;
      seen.add(w.openalexId);
      items.push({
        key: `reference:${w.openalexId}`,
        origin: 'retrieved',
        ref: w.doi ? `doi:${w.doi}` : `openalex:${w.openalexId}`,
      });
    }
    items.push(
      { key: `table:grounding-${q.id}`, origin: 'computed', ref: 'openalex:counts-by-year' },
      { key: `passage:question-${q.id}`, origin: 'model' },
    );
    if (q.theory || q.context) items.push({ key: `passage:theory-${q.id}`, origin: 'model' });
    if (q.justification) items.push({ key: `passage:justification-${q.id}`, origin: 'model' });
  }
  return items;
}
