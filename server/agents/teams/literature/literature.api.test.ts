import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WsServerMessage, WsSessionUpdateMessage } from '../../../../common/agents';
import {
  literatureFeedbackReplySchema,
  literatureStatusReplySchema,
  startLiteratureReplySchema,
  type LiteratureStatusReply,
} from '../../../../common/teams/literature';
import { createTestApp, createUser, type TestApp } from '../../../../test/app';
import { client, type Client } from '../../../../test/client';
import { provenanceReplySchema } from '../../../../common/provenance';
import {
  claimsReply,
  GAPS_FIRST,
  literatureScript,
  REVIEW_QUESTION,
} from '../../../../test/fixtures/literature-sources/llm-script';
import { makePdf } from '../../../../test/fixtures/literature-sources/pdf';
import {
  startLiteratureFixtures,
  type LiteratureFixtures,
} from '../../../../test/fixtures/literature-sources/server';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../../test/llm-server';
import { ruleFromJson } from '../../../../test/llm-server/scripts';
import { connectWs, type TestSocket } from '../../../../test/teams/ws-client';

/**
 * The Literature team through its spec routes and the WebSocket, against the fixture sources
 * (real formats) and the scripted model server: a whole review with feedback at the checkpoints,
 * the citation verifier at work, the documents saved, and the bad paths.
 */

let llm: ScriptedLlmServer;
let fixtures: LiteratureFixtures;
let t: TestApp;
let baseUrl: string;
const sockets: TestSocket[] = [];

const YEAR_COUNTS: Record<number, number> = {};
const thisYear = new Date().getUTCFullYear();
for (let y = thisYear - 11; y < thisYear; y++) YEAR_COUNTS[y] = y >= thisYear - 3 ? 300 : 100;

beforeAll(async () => {
  llm = await startScriptedLlmServer();
  fixtures = await startLiteratureFixtures();
  t = await createTestApp({
    LLM_PROVIDER: 'openai-compatible',
    OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
    LLM_MODEL: 'scripted-model',
    OPENALEX_BASE_URL: fixtures.urls.openalex,
    CROSSREF_BASE_URL: fixtures.urls.crossref,
    ARXIV_BASE_URL: fixtures.urls.arxiv,
    SEMANTIC_SCHOLAR_BASE_URL: fixtures.urls.semantic_scholar,
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await Promise.all(sockets.map((s) => s.close()));
  await t?.close();
  await fixtures?.close();
  await llm?.close();
});

beforeEach(() => {
  llm.reset();
  fixtures.reset();
  fixtures.setYearCounts(YEAR_COUNTS);
  for (const rule of literatureScript()) llm.script(ruleFromJson(rule));
});

async function researcher() {
  const u = await createUser(t.app);
  return { ...u, api: client(t.app, u.accessToken) };
}

async function status(api: Client, id: string): Promise<LiteratureStatusReply> {
  const res = await api.get(`/api/literature-team/status/${id}`);
  expect(res.status).toBe(200);
  return literatureStatusReplySchema.parse(res.body);
}

async function waitFor(
  api: Client,
  id: string,
  done: (s: LiteratureStatusReply) => boolean,
  timeoutMs = 20_000,
): Promise<LiteratureStatusReply> {
  const deadline = Date.now() + timeoutMs;
  let last: LiteratureStatusReply | undefined;
  while (Date.now() < deadline) {
    last = await status(api, id);
    if (done(last)) return last;
    if (last.status === 'error' && !done(last)) throw new Error(`session failed: ${last.error}`);
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error(`timed out; last ${last?.status} phase ${last?.phase} cp ${last?.checkpoint}`);
}

const atCheckpoint = (n: number) => (s: LiteratureStatusReply) =>
  s.status === 'waiting_for_input' && s.checkpoint === n;

const isUpdate = (m: WsServerMessage): m is WsSessionUpdateMessage => m.type === 'session-update';

describe('a literature review end to end', () => {
  it('searches, lets feedback change the search and the report, verifies citations and saves the documents', async () => {
    const me = await researcher();
    const socket = await connectWs(baseUrl, me.accessToken);
    sockets.push(socket);

    const start = await me.api.post('/api/literature-team/start', {
      researchQuestion: `  ${REVIEW_QUESTION}  `,
    });
    expect(start.status).toBe(201);
    expect(start.body).toMatchObject({ success: true, status: 'processing', phase: 1 });
    // The shared start reply: the session as it now stands.
    const id = startLiteratureReplySchema.parse(start.body).sessionId;
    expect(start.body).toMatchObject({ session: { sessionId: id, teamId: 'literature' } });
    socket.send({
      type: 'subscribe',
      subscriptionType: 'literature-team',
      filters: { sessionId: id },
    });

    // Checkpoint 1: papers, gaps, trends.
    const cp1 = await waitFor(me.api, id, atCheckpoint(1));
    expect(cp1.phase).toBe(2);
    expect(cp1.papers).toHaveLength(40);
    expect(cp1.papers.map((p) => p.number)).toEqual([...Array(40).keys()].map((i) => i + 1));
    expect(cp1.papers.every((p) => p.title && p.sourceId)).toBe(true);
    const withAbstract = cp1.papers.filter((p) => p.abstract);
    expect(withAbstract.every((p) => p.extractedFrom === 'abstract')).toBe(true);
    expect(cp1.papers.filter((p) => !p.abstract).every((p) => p.extractedFrom === 'none')).toBe(
      true,
    );
    // Several sources contributed, and the top works are merged across them.
    expect(new Set(cp1.papers.map((p) => p.source)).size).toBeGreaterThan(1);
    const dois = cp1.papers.map((p) => p.doi).filter(Boolean);
    expect(new Set(dois).size).toBe(dois.length);
    // Gaps: only those longer than 10 characters that rest on retrieved papers.
    expect(cp1.researchGaps.map((g) => g.supporting_papers)).toEqual([[1, 2], [3]]);
    // Trends: from the fixture's OpenAlex counts (300 a year recently against 100 before).
    expect(cp1.trends[0]).toMatchObject({ kind: 'overall', growth: 2 });
    expect(cp1.checkpointData).toMatchObject({
      papers: expect.any(Array),
      trends: expect.any(Array),
    });
    expect(
      cp1.logs.some((l) => /^Merged \d+ retrieved records into \d+ unique works/.test(l)),
    ).toBe(true);
    expect(cp1.logs.some((l) => l.startsWith('Dropped a proposed gap because'))).toBe(true);
    // Extraction is batched: at most a dozen model calls in the search phase.
    const searchCalls = llm.requestsFor('literature', 'search');
    expect(searchCalls.length).toBeLessThanOrEqual(12);
    expect(searchCalls.length).toBe(9);

    // Feedback that constrains the search: searched again, after 2010, focused.
    fixtures.requests.length = 0;
    const fb1 = await me.api.post('/api/literature-team/feedback', {
      sessionId: id,
      feedback: 'Only after 2010, and focus on developing countries',
    });
    expect(fb1.status).toBe(200);
    expect(fb1.body).toMatchObject({ success: true, status: 'processing' });
    // The feedback reply carries the session and what it has produced so far.
    const fb1Reply = literatureFeedbackReplySchema.parse(fb1.body);
    expect(fb1Reply.session.sessionId).toBe(id);
    expect(fb1Reply.papers).toEqual(cp1.papers);
    const cp1b = await waitFor(
      me.api,
      id,
      (s) =>
        atCheckpoint(1)(s) && s.researchGaps[0]?.gap_description.includes('after 2010') === true,
    );
    expect(cp1b.papers.length).toBeGreaterThan(3);
    expect(cp1b.papers.every((p) => (p.year ?? 0) >= 2011)).toBe(true);
    const openalexSearch = fixtures.requests.find(
      (r) => r.source === 'openalex' && r.query.search?.includes('developing countries'),
    );
    expect(openalexSearch?.query.filter).toContain('from_publication_date:2011-01-01');
    expect(
      cp1b.logs.some((l) => l.startsWith('Feedback applied to the search: publication years 2011')),
    ).toBe(true);

    // Checkpoint 2: gaps validated, references assembled.
    await me.api.post('/api/literature-team/feedback', { sessionId: id, feedback: 'Approved' });
    const cp2 = await waitFor(me.api, id, atCheckpoint(2));
    expect(cp2.references.length).toBe(cp2.papers.length);
    expect(cp2.references.every((r) => r.line.length > 20 && r.title.length <= 200)).toBe(true);

    // Checkpoint 3: the report, verified.
    await me.api.post('/api/literature-team/feedback', { sessionId: id, feedback: 'Approved' });
    const cp3 = await waitFor(me.api, id, atCheckpoint(3));
    const report = cp3.finalReport ?? '';
    expect(report).toContain('## Introduction');
    expect(report).not.toContain('[99]');
    expect(report).not.toContain('Fakeauthor');
    expect(report).not.toContain('10.9999/fake');
    expect(report).toContain('**[Claim check: not supported by the abstract of work 2, work 3.');
    expect(cp3.verification?.citationsRemoved.map((r) => r.citation)).toEqual([
      '(Fakeauthor et al., 2015)',
      '[99]',
    ]);
    expect(cp3.verification?.referencesRemoved).toHaveLength(1);
    expect(cp3.references.map((r) => r.number)).toEqual([1, 2, 3]);
    expect(cp3.references.every((r) => r.doi || r.url)).toBe(true);
    for (const r of cp3.references) expect(report).toContain(`- [${r.number}] ${r.line}`);
    expect(cp3.logs).toContain(
      `Citation verifier removed [99]: no work 99 was retrieved in this session (the retrieved set is 1-${cp3.papers.length})`,
    );

    // Feedback revises the report.
    await me.api.post('/api/literature-team/feedback', {
      sessionId: id,
      feedback: 'Say in the conclusion that developing countries need evidence',
    });
    const cp3b = await waitFor(
      me.api,
      id,
      (s) => atCheckpoint(3)(s) && (s.finalReport ?? '').includes('Revised after feedback'),
    );
    expect(llm.requestsFor('literature', 'report').at(-2)?.prompt).toContain(
      "The researcher's feedback: Say in the conclusion",
    );

    // Completed: the report and its bibliography are documents.
    await me.api.post('/api/literature-team/feedback', { sessionId: id, feedback: 'Approved' });
    const done = await waitFor(me.api, id, (s) => s.status === 'completed');
    expect(done.phase).toBe(5);
    expect(done.finalReport).toBe(cp3b.finalReport);
    const reportDoc = await me.api.get(`/api/documents/${done.documents?.report}`);
    expect(reportDoc.status).toBe(200);
    expect(reportDoc.body).toMatchObject({
      data: {
        document: { content: done.finalReport, format: 'md', category: 'literature_review' },
      },
    });
    const bib = await me.api.get(`/api/documents/${done.documents?.bibliography}`);
    const bibText = (bib.body as { data: { document: { content: string } } }).data.document.content;
    expect(bibText.match(/^@\w+\{/gm)).toHaveLength(3);

    // The socket carried the checkpoints and the completion (it may trail the HTTP reads).
    await socket.waitFor(
      (m) => isUpdate(m) && m.sessionId === id && m.updateType === 'process_completed',
    );
    const updates = socket.messages.filter(isUpdate).filter((m) => m.sessionId === id);
    const checkpoints = updates
      .filter((m) => m.updateType === 'checkpoint_reached')
      .map((m) => m.checkpoint);
    expect(checkpoints).toEqual([1, 1, 2, 3, 3]);
    expect(updates.some((m) => m.updateType === 'process_completed')).toBe(true);

    // The logs call returns the same lines as the status call. Both are read again after the
    // completion message: the closing log lines are written after the status change.
    const final = await waitFor(me.api, id, (s) => s.status === 'completed');
    expect(final.logs?.at(-1)).toBe('Session completed: all 5 phases done');
    const logs = await me.api.get(`/api/literature-team/logs/${id}`);
    expect((logs.body as { logs: string[] }).logs).toEqual(final.logs);
    // Five phases, four checkpoints and a feedback re-search: slow on a loaded machine.
  }, 90_000);
});

const FABRICATED = 'Fabricated, A. (2031) A paper nobody wrote. doi 10.9999/fabricated.2031';
const mentionsFabricated = (text: string) => /Fabricated|10\.9999/.test(text);

/**
 * A weak model: empty and code-like search terms, paper summaries under numbers it made up,
 * empty fields, an invented reference in a gap and in the report, and a figure of its own.
 */
function scriptWeakReview() {
  llm.reset();
  llm.script({
    agent: 'literature',
    phase: 'question',
    replies: [
      {
        json: {
          queries: ['', '   '],
          synonyms: ['import numpy as np', 'PES'],
          jel_codes: ['import numpy as np', 'Q57 Ecological Economics'],
        },
      },
    ],
  });
  llm.script({
    agent: 'literature',
    match: 'You summarise economics papers',
    // Five summaries, numbered 101-105: a batch of five takes them in order; a smaller batch
    // cannot, and its papers are marked as not extracted.
    replies: [
      {
        json: {
          papers: [101, 102, 103, 104, 105].map((number) => ({
            number,
            key_insight: `Insight given as paper ${number}.`,
            methodology: number === 105 ? '' : 'Panel data.',
            findings: 'Payments changed land use.',
          })),
        },
      },
    ],
  });
  llm.script({
    agent: 'literature',
    match: 'mapping research gaps',
    replies: [
      {
        json: {
          gaps: [
            {
              ...GAPS_FIRST.gaps[0]!,
              gap_description: `${GAPS_FIRST.gaps[0]!.gap_description} See ${FABRICATED}.`,
            },
            { gap_description: '', opportunity: '', recommendation: '', supporting_papers: [] },
          ],
        },
      },
    ],
  });
  llm.script({
    agent: 'literature',
    match: 'You write literature reviews',
    replies: [
      {
        text: [
          '## Introduction',
          '',
          `Payments for ecosystem services pay land users to conserve [1]. ${FABRICATED} disagrees.`,
          'Publication output grew by 999% in a decade [1].',
          '',
          '## Conclusion',
          '',
          'More evidence is needed [2].',
          '',
          '## References',
          '',
          `- ${FABRICATED}`,
        ].join('\n'),
      },
    ],
  });
  llm.script({
    agent: 'literature',
    match: 'You check citations',
    replies: [{ json: claimsReply([]) }],
  });
}

describe('a weak model', () => {
  it('keeps the computed work, marks the gaps and lets no invented reference through', async () => {
    scriptWeakReview();
    const me = await researcher();
    const start = await me.api.post('/api/literature-team/start', {
      researchQuestion: REVIEW_QUESTION,
    });
    expect(start.status).toBe(201);
    const id = startLiteratureReplySchema.parse(start.body).sessionId;
    const cp1 = await waitFor(me.api, id, atCheckpoint(1));

    // Blank queries: the question is searched; program text is no search term or JEL code.
    expect(cp1.logs).toContain(
      "Left out 2 of the model's search terms and JEL codes: program text, or not a JEL code",
    );
    expect(cp1.logs).toContain('JEL codes: Q57 Ecological Economics');
    expect(cp1.logs.some((l) => /import numpy/.test(l))).toBe(false);
    // Summaries under made-up numbers: matched in order where the counts agree.
    const extracted = cp1.papers.filter((p) => p.extractedFrom === 'abstract');
    expect(extracted.length).toBeGreaterThan(0);
    expect(extracted.every((p) => p.key_insight.startsWith('Insight given as paper 10'))).toBe(
      true,
    );
    expect(extracted.some((p) => p.methodology === 'Not stated in the abstract')).toBe(true);
    // The gap keeps its text without the invented work; the empty one is dropped.
    expect(cp1.researchGaps).toHaveLength(1);
    expect(mentionsFabricated(JSON.stringify(cp1.researchGaps))).toBe(false);

    await me.api.post('/api/literature-team/feedback', { sessionId: id, feedback: 'Approved' });
    await waitFor(me.api, id, atCheckpoint(2));
    await me.api.post('/api/literature-team/feedback', { sessionId: id, feedback: 'Approved' });
    const cp3 = await waitFor(me.api, id, atCheckpoint(3));
    const report = cp3.finalReport ?? '';
    expect(mentionsFabricated(report)).toBe(false);
    expect(report).toContain('999% **[unverified figure]**');
    expect(cp3.verification?.figuresUnverified.map((f) => f.figure)).toEqual(['999%']);
    expect(report).toContain('## Publication Trends (computed)');

    await me.api.post('/api/literature-team/feedback', { sessionId: id, feedback: 'Approved' });
    const done = await waitFor(me.api, id, (s) => s.status === 'completed');
    for (const line of done.logs.filter(mentionsFabricated)) {
      expect(line).toMatch(
        /^(Removed a reference to a work not retrieved in this session: |Citation verifier removed )/,
      );
    }

    // The saved report and bibliography say where each part came from.
    const provenanceOf = async (docId: string | null | undefined) =>
      provenanceReplySchema.parse((await me.api.get(`/api/documents/${docId}/provenance`)).body)
        .provenance;
    const reportProvenance = await provenanceOf(done.documents?.report);
    expect(reportProvenance).toMatchObject({ sessionId: id, team: 'literature' });
    const cited = done.papers.filter((p) => done.references.some((r) => r.number === p.number));
    expect(reportProvenance.items).toEqual(
      expect.arrayContaining([
        ...cited.map((p) => ({
          key: `reference:${p.sourceId}`,
          origin: 'retrieved',
          ref: expect.any(String),
        })),
        { key: 'table:trends', origin: 'computed', ref: 'openalex:counts-by-year' },
        { key: 'passage:introduction', origin: 'model' },
        { key: 'passage:conclusion', origin: 'model' },
      ]),
    );
    expect(reportProvenance.records.map((r) => r.id)).toEqual(
      expect.arrayContaining(cited.map((p) => p.sourceId)),
    );
    const bibProvenance = await provenanceOf(done.documents?.bibliography);
    expect(bibProvenance.items.every((i) => i.origin === 'retrieved')).toBe(true);
    const saved = await me.api.get(`/api/documents/${done.documents?.report}`);
    const content = (saved.body as { data: { document: { content: string } } }).data.document
      .content;
    expect(content).toContain('<!-- origin:model -->');
    expect(mentionsFabricated(content)).toBe(false);
  }, 90_000);
});

describe('sources and library', () => {
  it('fails the search naming every source and its error when none answers', async () => {
    // Retry-After: 0 keeps the retries (honoured) from slowing the test down.
    const now = { 'retry-after': '0' };
    fixtures.setDown('openalex', { kind: 'status', status: 503, headers: now });
    fixtures.setDown('crossref', { kind: 'status', status: 500, headers: now });
    fixtures.setDown('arxiv', { kind: 'malformed', body: 'not xml at all' });
    fixtures.setDown('semantic_scholar', { kind: 'status', status: 404 });
    const me = await researcher();
    // Another question: replies to the first one are in the sources' one-hour cache.
    llm.reset();
    llm.script({
      agent: 'literature',
      phase: 'question',
      replies: [{ json: { queries: ['carbon tax incidence'], synonyms: [], jel_codes: [] } }],
    });
    for (const rule of literatureScript().slice(1)) llm.script(ruleFromJson(rule));
    const start = await me.api.post('/api/literature-team/start', {
      researchQuestion: 'Who bears the burden of a carbon tax?',
      sources: ['openalex', 'crossref', 'arxiv', 'semantic_scholar'],
    });
    const id = (start.body as { sessionId: string }).sessionId;
    const failed = await waitFor(me.api, id, (s) => s.status === 'error');
    expect(failed.error).toMatch(/OpenAlex: HTTP 503/);
    expect(failed.error).toMatch(/Crossref: HTTP 500/);
    expect(failed.error).toMatch(/arXiv: reply is not valid XML/);
    expect(failed.error).toMatch(
      /^Literature Search failed: No literature source could be searched/,
    );
    expect(failed.error).toMatch(/Semantic Scholar: HTTP 404/);
  });

  it('reviews the library uploaded at start (BibTeX and a PDF)', async () => {
    const bib = [
      '@article{wunder2008, title={Payments for environmental services and the poor: concepts and preliminary evidence},',
      '  author={Wunder, Sven}, journal={Environment and Development Economics}, year={2008}, doi={10.1017/S1355770X08004282},',
      '  abstract={Payments for ecosystem services can reduce poverty when the poor are sellers of conservation.}}',
      '@article{unrelated, title={Optimal monetary policy in open economies}, author={Gali, Jordi}, year={2005}}',
    ].join('\n');
    const pdf = makePdf({
      title: 'Conservation payments and rural livelihoods in the Osa peninsula',
      pages: [
        [
          'Conservation payments and rural livelihoods in the Osa peninsula',
          'Abstract',
          'We study payments for ecosystem services and biodiversity conservation among poor farmers.',
        ],
      ],
    });
    const me = await researcher();
    const start = await me.api.post('/api/literature-team/start', {
      researchQuestion: REVIEW_QUESTION,
      sources: ['library'],
      libraryFiles: [
        { name: 'mine.bib', contentBase64: Buffer.from(bib).toString('base64') },
        { name: 'osa.pdf', contentBase64: Buffer.from(pdf).toString('base64') },
      ],
    });
    expect(start.status).toBe(201);
    expect((start.body as { library: unknown[] }).library).toEqual([
      { name: 'mine.bib', works: 2, skipped: 0 },
      { name: 'osa.pdf', works: 1, skipped: 0, matchedBy: 'none' },
    ]);
    const id = (start.body as { sessionId: string }).sessionId;
    const cp1 = await waitFor(me.api, id, atCheckpoint(1));
    // Only the library works that match the question's terms (not the monetary policy paper).
    expect(cp1.papers.map((p) => p.source)).toEqual(['library', 'library']);
    expect(cp1.papers.map((p) => p.sourceId).sort()).toEqual(['osa.pdf', 'wunder2008']);
    expect(cp1.papers.find((p) => p.sourceId === 'osa.pdf')?.abstract).toMatch(
      /^We study payments/,
    );
    // The public sources were only asked to match the PDF's metadata, never searched.
    expect(
      fixtures.requests.filter((r) => r.source === 'arxiv' || r.source === 'semantic_scholar'),
    ).toEqual([]);
    expect(
      fixtures.requests
        .filter((r) => r.source === 'crossref')
        .every((r) => 'query.bibliographic' in r.query),
    ).toBe(true);
    expect(
      fixtures.requests
        .filter((r) => r.source === 'openalex')
        .every((r) => r.query.per_page === '3'),
    ).toBe(true);
  });
});

describe('bad paths', () => {
  it('refuses a blank question and blank feedback with the spec texts, and unknown sessions with 404', async () => {
    const me = await researcher();
    const blank = await me.api.post('/api/literature-team/start', { researchQuestion: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body).toMatchObject({ success: false });
    expect(JSON.stringify(blank.body)).toContain('Please enter a research question first');
    const noBody = await me.api.post('/api/literature-team/start', {});
    expect(noBody.status).toBe(400);
    const fb = await me.api.post('/api/literature-team/feedback', {
      sessionId: '00000000-0000-4000-8000-000000000000',
      feedback: '  ',
    });
    expect(fb.status).toBe(400);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await me.api.get(`/api/literature-team/status/${missing}`)).status).toBe(404);
    expect((await me.api.get(`/api/literature-team/logs/${missing}`)).status).toBe(404);
    expect((await me.api.get('/api/literature-team/status/not-an-id')).status).toBe(400);
    const notWaiting = await me.api.post('/api/literature-team/feedback', {
      sessionId: missing,
      feedback: 'more',
    });
    expect(notWaiting.status).toBe(404);
  });

  it("does not show another researcher's session", async () => {
    const owner = await researcher();
    const other = await researcher();
    const start = await owner.api.post('/api/literature-team/start', {
      researchQuestion: REVIEW_QUESTION,
    });
    const id = (start.body as { sessionId: string }).sessionId;
    expect((await other.api.get(`/api/literature-team/status/${id}`)).status).toBe(404);
    expect((await other.api.get(`/api/literature-team/logs/${id}`)).status).toBe(404);
    const fb = await other.api.post('/api/literature-team/feedback', {
      sessionId: id,
      feedback: 'x',
    });
    expect(fb.status).toBe(404);
    await waitFor(owner.api, id, atCheckpoint(1));
  });
});

describe('without a language model', () => {
  it('fails at once with the configure-a-model message and asks no source', async () => {
    const bare = await createTestApp({
      OPENALEX_BASE_URL: fixtures.urls.openalex,
      CROSSREF_BASE_URL: fixtures.urls.crossref,
    });
    try {
      const u = await createUser(bare.app);
      const res = await client(bare.app, u.accessToken).post('/api/literature-team/start', {
        researchQuestion: REVIEW_QUESTION,
        libraryFiles: [
          { name: 'a.bib', contentBase64: Buffer.from('@article{k,title={T}}').toString('base64') },
        ],
      });
      expect(res.status).toBe(422);
      expect((res.body as { message: string }).message).toMatch(/model/i);
      expect(fixtures.requests).toEqual([]);
      expect(llm.requests).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
