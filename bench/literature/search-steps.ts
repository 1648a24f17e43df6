/**
 * The literature search phase's own CPU steps on the fixture sources' recorded replies (one page
 * of each source, as a default review asks for: 24 works), without the network: each source's
 * parsing into works, and the corpus (two queries' lists merged by DOI and title, ranked per
 * query and against the question, the top 40 kept). The anchor, in the same run: JSON.parse of
 * the same replies, the part no connector can skip. CPU time of this process (min and median
 * over the rounds), so that other processes on the machine move it less than wall time.
 *
 *   npx tsx bench/literature/search-steps.ts [rounds=40]
 */
import { buildCorpus } from '../../server/agents/teams/literature/corpus';
import { parseArxivFeed } from '../../server/sources/arxiv';
import { workFromCrossref } from '../../server/sources/crossref';
import { workFromOpenAlex } from '../../server/sources/openalex';
import { workFromSemanticScholar } from '../../server/sources/semantic-scholar';
import type { LiteratureSource, SourceId, Work } from '../../server/sources/work';
import { startLiteratureFixtures } from '../../test/fixtures/literature-sources/server';

const ROUNDS = Number(process.argv[2] ?? 40);

function cpuMs(run: () => unknown): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

async function cpuMsAsync(run: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

const defined = <T>(x: T | undefined): x is T => x !== undefined;

async function main(): Promise<void> {
  const fixtures = await startLiteratureFixtures();
  const get = async (url: string) => (await fetch(url)).text();
  const replies = {
    openalex: await get(`${fixtures.urls.openalex}/works?search=x&per_page=24&cursor=*`),
    crossref: await get(`${fixtures.urls.crossref}/works?query=x&rows=24&offset=0`),
    arxiv: await get(`${fixtures.urls.arxiv}/api/query?search_query=all:x&start=0&max_results=24`),
    semantic_scholar: await get(
      `${fixtures.urls.semantic_scholar}/graph/v1/paper/search?query=x&offset=0&limit=24`,
    ),
  };
  await fixtures.close();

  const parse: Record<keyof typeof replies, () => Work[]> = {
    openalex: () =>
      (JSON.parse(replies.openalex) as { results: unknown[] }).results
        .map((r, i) => workFromOpenAlex(r, i))
        .filter(defined),
    crossref: () =>
      (JSON.parse(replies.crossref) as { message: { items: unknown[] } }).message.items
        .map((r, i) => workFromCrossref(r, i))
        .filter(defined),
    arxiv: () => parseArxivFeed(replies.arxiv).works,
    semantic_scholar: () =>
      (JSON.parse(replies.semantic_scholar) as { data: unknown[] }).data
        .map((r, i) => workFromSemanticScholar(r, i))
        .filter(defined),
  };
  const lists = Object.fromEntries(
    Object.entries(parse).map(([source, run]) => [source, run()]),
  ) as Record<SourceId, Work[]>;
  // Each query gets its own copies, as each reply is parsed anew.
  const sources: LiteratureSource[] = (Object.keys(parse) as (keyof typeof replies)[]).map(
    (id) => ({
      id,
      label: id,
      search: () => Promise.resolve({ source: id, works: structuredClone(lists[id]), requests: 1 }),
    }),
  );

  const samples: Record<string, number[]> = {};
  const add = (step: string, ms: number) => (samples[step] ??= []).push(ms);
  for (let round = 0; round < ROUNDS; round++) {
    add(
      'anchor: JSON.parse of the three JSON replies',
      cpuMs(() => {
        JSON.parse(replies.openalex);
        JSON.parse(replies.crossref);
        JSON.parse(replies.semantic_scholar);
      }),
    );
    for (const [source, run] of Object.entries(parse)) add(`parse ${source}`, cpuMs(run));
    add(
      'corpus: 2 queries merged, ranked, top 40',
      await cpuMsAsync(() =>
        buildCorpus({
          sources,
          plan: {
            queries: [`payments ecosystem services round${round}`, `conservation payments poverty`],
            emphasis: 'relevance',
            focus: [],
            notes: [],
          },
          question: 'Do payments for ecosystem services reduce deforestation and poverty?',
          topN: 40,
        }),
      ),
    );
  }
  const bytes = Object.values(replies).reduce((n, r) => n + r.length, 0);
  console.log(
    `Literature search steps, ${ROUNDS} rounds, CPU ms of this process (min / median); ` +
      `replies ${Math.round(bytes / 1000)} kB (one page of each source)`,
  );
  for (const [step, xs] of Object.entries(samples)) {
    xs.sort((a, b) => a - b);
    console.log(
      `  ${step.padEnd(46)} ${xs[0]!.toFixed(2).padStart(7)} / ${xs[Math.floor(xs.length / 2)]!.toFixed(2).padStart(7)}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
