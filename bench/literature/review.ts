/**
 * A default literature review (the Literature team with its default settings) in process, through the
 * team's HTTP routes, against the fixture sources answering after a fixed delay (real formats,
 * test/fixtures/literature-sources) and the scripted model server answering after a fixed delay.
 * Each checkpoint is approved at once, so the numbers are the machine's, not a person's.
 *
 * Prints: works retrieved, unique and kept; per phase the wall time, model calls and tokens
 * (llm_calls), source requests; and, for the search phase, the runtime's share of its wall time
 * (time in which neither a model call nor a source request was in flight).
 *
 *   npx tsx bench/literature/review.ts [runs=3] [sourceDelayMs=50] [modelDelayMs=200]
 *
 * With TRACE=1 it also prints, per run, each stretch of the search phase in which neither was in
 * flight (from 1 ms), between the requests that ended before it and started after it.
 */
import { inArray } from 'drizzle-orm';
import type { AgentSession } from '../../common/agents';
import { literatureStatusReplySchema } from '../../common/teams/literature';
import { llmCalls } from '../../server/db/schema';
import { createTestApp, createUser } from '../../test/app';
import {
  literatureScript,
  REVIEW_QUESTION,
} from '../../test/fixtures/literature-sources/llm-script';
import { startLiteratureFixtures } from '../../test/fixtures/literature-sources/server';
import { startScriptedLlmServer } from '../../test/llm-server';
import { ruleFromJson } from '../../test/llm-server/scripts';
import { sessionClient } from '../../test/teams/helpers';

const RUNS = Number(process.argv[2] ?? 3);
const SOURCE_DELAY_MS = Number(process.argv[3] ?? 50);
const MODEL_DELAY_MS = Number(process.argv[4] ?? 200);
const PHASES = ['question', 'search', 'gaps', 'report', 'complete'] as const;

type Interval = [number, number];

/** Total length of the union of intervals clipped to [from, to]. */
function covered(intervals: Interval[], from: number, to: number): number {
  const clipped = intervals
    .map(([a, b]): Interval => [Math.max(a, from), Math.min(b, to)])
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = -Infinity;
  let start = -Infinity;
  for (const [a, b] of clipped) {
    if (a > end) {
      if (end > start) total += end - start;
      start = a;
      end = b;
    } else end = Math.max(end, b);
  }
  if (end > start) total += end - start;
  return total;
}

type Labelled = { from: number; to: number; label: string };

/** The stretches of [from, to] no interval covers, each named by what ended and what began. */
function gaps(intervals: Labelled[], from: number, to: number): string[] {
  const sorted = [...intervals].sort((a, b) => a.from - b.from);
  const out: string[] = [];
  let at = from;
  let before = 'phase start';
  for (const i of sorted) {
    if (i.to <= at) continue;
    if (i.from > at && i.from - at >= 1 && at < to)
      out.push(`${Math.min(i.from, to) - at} ms at +${at - from}: ${before} -> ${i.label}`);
    at = i.to;
    before = i.label;
  }
  if (to - at >= 1) out.push(`${to - at} ms at +${at - from}: ${before} -> phase end`);
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
};

async function main(): Promise<void> {
  const llm = await startScriptedLlmServer();
  const fixtures = await startLiteratureFixtures();
  const year = new Date().getUTCFullYear();
  const counts: Record<number, number> = {};
  for (let y = year - 11; y < year; y++) counts[y] = y >= year - 3 ? 240 : 120;
  const t = await createTestApp({
    LLM_PROVIDER: 'openai-compatible',
    OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
    LLM_MODEL: 'scripted-model',
    AGENT_SESSION_TOKEN_BUDGET: '0',
    OPENALEX_BASE_URL: fixtures.urls.openalex,
    CROSSREF_BASE_URL: fixtures.urls.crossref,
    ARXIV_BASE_URL: fixtures.urls.arxiv,
    SEMANTIC_SCHOLAR_BASE_URL: fixtures.urls.semantic_scholar,
    // A fresh cache per run would need a fresh process: turn OpenAlex's off so every run asks.
    OPENALEX_CACHE_SECONDS: '0',
  });
  const rows: Record<string, number>[] = [];
  const database = t.ctx.database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  try {
    for (let run = 0; run < RUNS; run++) {
      llm.reset();
      // Replies the size a model's would be: one entry per paper or sentence of the batch asked
      // about (the shared script answers for any batch, which would inflate the token counts).
      llm.script({
        agent: 'literature',
        match: 'You summarise economics papers',
        replies: [
          (req) => ({
            json: {
              papers: [...req.prompt.matchAll(/^\[(\d+)\]/gm)].map((m) => ({
                number: Number(m[1]),
                key_insight: 'Conservation payments change land use where enforcement is credible.',
                methodology: 'Household panel with matched non-participants.',
                findings: 'Forest cover rose; household income effects were small.',
              })),
            },
            delayMs: MODEL_DELAY_MS,
          }),
        ],
      });
      llm.script({
        agent: 'literature',
        match: 'You check citations',
        replies: [
          (req) => ({
            json: {
              checks: [...req.prompt.matchAll(/^(\d+)\. /gm)].map((m) => ({
                id: Number(m[1]),
                supported: true,
                reason: 'Stated in the abstract.',
              })),
            },
            delayMs: MODEL_DELAY_MS,
          }),
        ],
      });
      for (const rule of literatureScript({ delayMs: MODEL_DELAY_MS }))
        llm.script(ruleFromJson(rule));
      fixtures.reset();
      fixtures.setYearCounts(counts);
      fixtures.setDelay(SOURCE_DELAY_MS);
      const user = await createUser(t.app);
      const sessions = sessionClient(t.app, user.accessToken);
      // Each run asks another question and searches other words, so no source reply comes from a
      // cache (a word, not a bare digit: arXiv's query drops one-character terms).
      const question = `${REVIEW_QUESTION} (run ${run + 1})`;
      llm.script({
        agent: 'literature',
        phase: 'question',
        match: `run ${run + 1})`,
        replies: [
          {
            json: {
              queries: [
                `payments ecosystem services biodiversity round${run + 1}`,
                `conservation payments poverty round${run + 1}`,
              ],
              synonyms: [],
              jel_codes: [],
            },
            delayMs: MODEL_DELAY_MS,
          },
        ],
      });
      const start = await t.app.inject({
        method: 'POST',
        url: '/api/literature-team/start',
        headers: { authorization: `Bearer ${user.accessToken}` },
        payload: { researchQuestion: question },
      });
      if (start.statusCode !== 201) throw new Error(`start ${start.statusCode} ${start.body}`);
      const id = (start.json() as { sessionId: string }).sessionId;
      for (const checkpoint of [1, 2, 3]) {
        await sessions.waitFor(
          id,
          (s) => s.status === 'waiting_for_input' && s.checkpoint === checkpoint,
          120_000,
        );
        await sessions.feedback(id, 'Approved');
      }
      const done: AgentSession = await sessions.waitFor(
        id,
        (s) => s.status === 'completed',
        120_000,
      );
      const status = literatureStatusReplySchema.parse(
        (
          await t.app.inject({
            method: 'GET',
            url: `/api/literature-team/status/${id}`,
            headers: { authorization: `Bearer ${user.accessToken}` },
          })
        ).json(),
      );
      const search = done.results.find((r) => r.key === 'search')!.result as {
        retrievedCount: number;
        uniqueCount: number;
      };

      // Phase windows from the results' completion times (human waits excluded: each phase
      // starts when the one before it was approved, which happened at once).
      const ends = new Map(done.results.map((r) => [r.key, Date.parse(r.completedAt)]));
      const starts = new Map<string, number>();
      starts.set('question', Date.parse(done.startedAt!));
      // Search follows the question at once; gaps, report and complete follow the approvals
      // of checkpoints 1, 2 and 3.
      starts.set('search', ends.get('question')!);
      const approvals = done.feedback.map((f) => Date.parse(f.submittedAt));
      (['gaps', 'report', 'complete'] as const).forEach((p, i) => starts.set(p, approvals[i]!));

      const calls = await t.ctx.db
        .select({
          phase: llmCalls.phase,
          input: llmCalls.inputTokens,
          output: llmCalls.outputTokens,
        })
        .from(llmCalls)
        .where(inArray(llmCalls.sessionId, [id]));
      const row: Record<string, number> = {
        total: Date.parse(done.completedAt!) - Date.parse(done.startedAt!),
        retrieved: search.retrievedCount,
        unique: search.uniqueCount,
        kept: status.papers.length,
        cited: status.references.length,
      };
      for (const p of PHASES) {
        const mine = calls.filter((c) => c.phase === p);
        row[`${p}.ms`] = ends.get(p)! - starts.get(p)!;
        row[`${p}.calls`] = mine.length;
        row[`${p}.tokens`] = mine.reduce((n, c) => n + c.input + c.output, 0);
      }
      const from = starts.get('search')!;
      const to = ends.get('search')!;
      const model: Interval[] = llm.requests
        .filter((r) => r.phase === 'search')
        .map((r) => [r.startedAt, r.endedAt ?? r.startedAt]);
      const source: Interval[] = fixtures.requests.map((r) => [
        r.receivedAt,
        r.finishedAt ?? r.receivedAt,
      ]);
      row['search.sourceRequests'] = fixtures.requests.filter(
        (r) => r.receivedAt >= from && r.receivedAt <= to,
      ).length;
      row['search.modelBusyMs'] = covered(model, from, to);
      row['search.sourceBusyMs'] = covered(source, from, to);
      row['search.runtimeMs'] = to - from - covered([...model, ...source], from, to);
      // From the end of the question phase to the search phase's first source request: the
      // runtime picking up the next phase job.
      const firstSource = Math.min(...source.map(([a]) => a).filter((a) => a >= from));
      row['search.startupMs'] = firstSource - from;
      rows.push(row);
      if (process.env.TRACE) {
        const labelled: Labelled[] = [
          ...llm.requests
            .filter((r) => r.phase === 'search')
            .map((r) => ({
              from: r.startedAt,
              to: r.endedAt ?? r.startedAt,
              label: `model ${r.system.startsWith('You summarise') ? 'extraction' : 'gaps'} #${r.seq}`,
            })),
          ...fixtures.requests.map((r) => ({
            from: r.receivedAt,
            to: r.finishedAt ?? r.receivedAt,
            label: `${r.source}${r.query.group_by ? ' counts' : ''}`,
          })),
        ];
        // The window on the monotonic clock a --cpu-prof profile's timestamps use (µs).
        const offsetUs = Date.now() * 1000 - Number(process.hrtime.bigint() / 1000n);
        console.log(
          `run ${run + 1}: search ${to - from} ms (monotonic µs ${from * 1000 - offsetUs}-${to * 1000 - offsetUs}), neither in:`,
        );
        for (const line of gaps(labelled, from, to)) console.log(`  ${line}`);
      }
    }
  } finally {
    await t.close();
    await fixtures.close();
    await llm.close();
  }

  const m = (k: string) => median(rows.map((r) => r[k]!));
  console.log(
    `Literature review, ${RUNS} runs (medians); sources answer after ${SOURCE_DELAY_MS} ms, ` +
      `the model after ${MODEL_DELAY_MS} ms; ${database}, one process`,
  );
  console.log(
    `  works: ${m('retrieved')} retrieved, ${m('unique')} unique, top ${m('kept')} kept, ${m('cited')} cited in the report`,
  );
  console.log(`  start to completed (approvals at once): ${Math.round(m('total'))} ms`);
  console.log('  phase       wall ms   model calls   tokens');
  for (const p of PHASES)
    console.log(
      `  ${p.padEnd(10)} ${String(Math.round(m(`${p}.ms`))).padStart(8)} ${String(m(`${p}.calls`)).padStart(13)} ${String(m(`${p}.tokens`)).padStart(8)}`,
    );
  const wall = m('search.ms');
  console.log(
    `  search phase: ${m('search.sourceRequests')} source requests; model busy ${Math.round(m('search.modelBusyMs'))} ms, ` +
      `sources busy ${Math.round(m('search.sourceBusyMs'))} ms, neither (the runtime and our code) ` +
      `${Math.round(m('search.runtimeMs'))} ms = ${((m('search.runtimeMs') / wall) * 100).toFixed(1)}% of ${Math.round(wall)} ms`,
  );
  console.log(
    `  of which ${Math.round(m('search.startupMs'))} ms before the phase's first source request (the next phase job picked up)`,
  );
  // Each run's share, to show the spread behind the median on a loaded machine.
  const shares = rows
    .map((r) => (100 * r['search.runtimeMs']!) / r['search.ms']!)
    .sort((a, b) => a - b);
  console.log(
    `  search phase's own share, each run sorted: ${shares.map((x) => x.toFixed(1) + '%').join(', ')}`,
  );
  const totalCalls = PHASES.reduce((n, p) => n + m(`${p}.calls`), 0);
  const totalTokens = PHASES.reduce((n, p) => n + m(`${p}.tokens`), 0);
  console.log(`  whole review: ${totalCalls} model calls, ${totalTokens} tokens`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
