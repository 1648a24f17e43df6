import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  agentPanels,
  IDEATION_AGENTS,
  ideationLogsReplySchema,
  parseFinalQuestions,
  saveIdeationReplySchema,
  splitAutomaticItems,
  startIdeationReplySchema,
  type IdeationLogsReply,
  type StartIdeationReply,
} from '../../../../common/teams/ideation';
import { provenanceReplySchema } from '../../../../common/provenance';
import { createTestApp, createUser, type TestApp } from '../../../../test/app';
import { client, type Client } from '../../../../test/client';
import {
  sampleTopicCounts,
  startIdeationOpenAlexFixture,
  type IdeationOpenAlexFixture,
} from '../../../../test/fixtures/ideation-openalex/server';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../../test/llm-server';
import { trendWindow } from './trend-discovery';

/**
 * The Ideation team through its HTTP calls, with the scripted model server
 * and an OpenAlex fixture server: both modes end in FINAL_QUESTIONS and TERMINATE, every final
 * question carries the works and counts retrieved for it, nothing unretrieved is cited, and the
 * bad paths answer with clear 4xx.
 */

let llm: ScriptedLlmServer;
let openalex: IdeationOpenAlexFixture;
let t: TestApp;

const BASE = '/api/agents/ideation-team';

const REFINED = [
  {
    question: 'Do payments for ecosystem services raise biodiversity conservation on farms?',
    searchQuery: 'payments biodiversity conservation',
  },
  {
    question: 'How do governance indicators predict development outcomes',
    searchQuery: 'governance indicators',
  },
  {
    question: 'Did higher global food prices raise poverty in low-income countries?',
    searchQuery: 'food prices poverty',
  },
  {
    // A duplicate of the first once case and punctuation are ignored.
    question: 'do payments for ecosystem services raise biodiversity conservation on farms',
    searchQuery: 'payments biodiversity',
  },
];

function scriptHumanRun(opts: { ideateDelayMs?: number } = {}) {
  llm.scriptPhase('ideation', 'ideate', {
    json: {
      candidates: [
        'Payments for ecosystem services and conservation on farms',
        'Governance quality and development',
        'Food price spikes and poverty',
        'TERMINATE clauses in conservation contracts',
      ],
    },
    ...(opts.ideateDelayMs ? { delayMs: opts.ideateDelayMs } : {}),
  });
  llm.scriptPhase('ideation', 'refine', { json: { questions: REFINED } });
  llm.scriptPhase('ideation', 'contextualize', {
    json: {
      questions: [
        {
          id: 'Q1',
          theory: 'contract theory of conservation payments',
          context: 'Direct payments are argued to be cost-effective [W1], unlike [W9].',
          citedWorks: ['W1', 'W7'],
        },
        {
          id: 'Q2',
          theory: 'institutional economics',
          context: 'Indicators of governance are measured across countries [W1].',
          citedWorks: ['W1'],
        },
        {
          id: 'Q3',
          theory: 'household welfare and price shocks',
          context: 'Higher food prices affect poor net buyers [W1].',
          citedWorks: ['W1'],
        },
      ],
    },
  });
  llm.scriptPhase('ideation', 'finalize', {
    json: {
      ranking: [
        { id: 'Q3', justification: 'Few works match it [W1], and prices keep moving.' },
        { id: 'Q1', justification: 'Payment design is open [W4].' },
        { id: 'q2', justification: 'Governance data are rich.' },
        { id: 'Q9', justification: 'Not a question we have.' },
      ],
    },
  });
}

async function startAndWait(
  api: Client,
  body: Record<string, unknown>,
): Promise<{ start: StartIdeationReply; done: IdeationLogsReply }> {
  const res = await api.post(BASE, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const start = startIdeationReplySchema.parse(res.body);
  const done = await waitForLogs(
    api,
    start.sessionId,
    (r) => r.status === 'completed' || r.status === 'error',
  );
  return { start, done };
}

async function waitForLogs(
  api: Client,
  sessionId: string,
  until: (r: IdeationLogsReply) => boolean,
  timeoutMs = 20_000,
): Promise<IdeationLogsReply> {
  const deadline = Date.now() + timeoutMs;
  let last: IdeationLogsReply | undefined;
  while (Date.now() < deadline) {
    const res = await api.get(`${BASE}/logs/${sessionId}`);
    expect(res.status).toBe(200);
    last = ideationLogsReplySchema.parse(res.body);
    if (until(last)) return last;
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error(`ideation session did not finish: ${JSON.stringify(last)}`);
}

beforeAll(async () => {
  llm = await startScriptedLlmServer();
  openalex = await startIdeationOpenAlexFixture();
  t = await createTestApp({
    LLM_PROVIDER: 'openai-compatible',
    OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
    LLM_MODEL: 'scripted-model',
    OPENALEX_BASE_URL: openalex.baseUrl,
    // Each test sets its own OpenAlex answers; reused replies would hide them.
    OPENALEX_CACHE_SECONDS: '0',
  });
});

afterAll(async () => {
  await t?.close();
  await llm?.close();
  await openalex?.close();
});

beforeEach(() => {
  llm.reset();
  openalex.reset();
});

describe('human mode', () => {
  it('answers at once, then the four agents end in FINAL_QUESTIONS and TERMINATE', async () => {
    scriptHumanRun();
    openalex.setSearchTotal('food prices poverty', 5400);
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    const idea = 'Conservation payments, governance and food prices in poor countries';
    const { start, done } = await startAndWait(api, { idea, mode: 'human' });

    expect(start.questions).toEqual([]);
    expect(start.logs[0]).toMatch(/^Started Ideation session: 4 phases/);
    // The shared start reply: the session as it stands, on the human plan.
    expect(start.status).toBe('processing');
    expect(start.session).toMatchObject({
      sessionId: start.sessionId,
      teamId: 'ideation',
      agentId: 'ideation-human',
      totalPhases: 4,
    });
    expect(done.status, done.error ?? '').toBe('completed');
    expect(done.phase).toBe(4);
    expect(done.mode).toBe('human');
    expect(done.topics).toBeNull();

    // The agents' sections in order, each opened by its phase; the markers last of theirs.
    const logs = done.logs;
    const firstOf = (agent: string) => logs.findIndex((l) => l.startsWith(`${agent}:`));
    const order = IDEATION_AGENTS.map(firstOf);
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const fqAt = logs.findIndex((l) => l.startsWith('FINAL_QUESTIONS:'));
    expect(logs[fqAt + 1]).toBe('TERMINATE');
    expect(logs.slice(fqAt + 2).every((l) => /^(Completed phase|Session completed)/.test(l))).toBe(
      true,
    );
    expect(agentPanels(logs, false).map((p) => p.state)).toEqual([
      'completed',
      'completed',
      'completed',
      'completed',
    ]);
    // The idea's candidate about "TERMINATE clauses" did not end the run early on the screen.
    expect(logs.filter((l) => l.includes('TERMINATE'))).toEqual(['TERMINATE']);
    expect(logs).toContain('Ideator: 4. Terminate clauses in conservation contracts');

    // The Refiner: duplicates out, every question one sentence ending in '?'.
    expect(logs).toContain(
      'Refiner: Kept 3 questions from 4 candidates (1 merged as duplicates or dropped)',
    );
    expect(logs).toContain(
      'Refiner: Q2. How do governance indicators predict development outcomes? (search: governance indicators)',
    );

    // FINAL_QUESTIONS: ranked by the Finalizer, unknown ids ignored, each with its justification.
    const parsed = parseFinalQuestions(logs);
    expect(parsed.found && parsed.ok).toBe(true);
    if (!parsed.found || !parsed.ok) return;
    expect(parsed.items.map((i) => i.question)).toEqual([
      REFINED[2]!.question,
      REFINED[0]!.question,
      'How do governance indicators predict development outcomes?',
    ]);
    expect(parsed.items[0]!.justification).toBe('Few works match it [W1], and prices keep moving.');
    expect(
      logs.some((l) => l.includes('Ignored a ranking entry for unknown or repeated id Q9')),
    ).toBe(true);

    // Grounding: the works the search retrieved (ids as OpenAlex has them) and its counts.
    const final = done.finalQuestions!;
    expect(final.map((q) => q.rank)).toEqual([1, 2, 3]);
    for (const q of final) {
      const expected = openalex.worksFor(q.grounding.searchQuery, 5);
      expect(expected.length).toBeGreaterThan(0);
      expect(q.grounding.works.map((w) => w.openalexId)).toEqual(expected.map((w) => w.id));
      expect(q.grounding.works.map((w) => w.title)).toEqual(expected.map((w) => w.title));
    }
    expect(final[0]!.grounding.totalWorks).toBe(5400);
    expect(final[0]!.grounding.novelty).toBe('heavily studied');
    expect(final[2]!.grounding.novelty).toBe('little studied');
    const years = trendWindow(new Date());
    expect(final[0]!.grounding.countsByYear.map((c) => c.year)).toEqual([
      years.baseline[0],
      years.baseline[0] + 1,
      years.baseline[1],
      years.recent[0],
      years.recent[0] + 1,
      years.recent[1],
    ]);

    // Nothing cited that was not retrieved: W9 (text) and W7 (list) were not, and are gone.
    const q1 = done.grounding!.find((q) => q.id === 'Q1')!;
    const retrieved = new Set(q1.grounding.works.map((w) => w.key));
    expect(retrieved.has('W9')).toBe(false);
    expect(q1.context).not.toContain('[W9]');
    expect(q1.citedWorks.every((k) => retrieved.has(k))).toBe(true);
    expect(
      logs.some((l) =>
        /Contextualizer: Removed \d+ citations of works that were not retrieved/.test(l),
      ),
    ).toBe(true);
    for (const q of done.grounding!) {
      const keys = new Set(q.grounding.works.map((w) => w.key));
      expect(q.citedWorks.every((k) => keys.has(k))).toBe(true);
    }
    // The Finalizer's justification cited [W4] for Q1, which was retrieved only if Q1 has 4 works.
    const q1Final = final.find((q) => q.id === 'Q1')!;
    expect(q1Final.justification.includes('[W4]')).toBe(q1Final.grounding.works.length >= 4);

    // The model saw the idea, and the Contextualizer's prompt held the retrieved works.
    expect(llm.requestsFor('ideation', 'ideate')[0]!.prompt).toContain(idea);
    const ctxPrompt = llm.requestsFor('ideation', 'contextualize')[0]!.prompt;
    expect(ctxPrompt).toContain(final[0]!.grounding.works[0]!.title);
    expect(ctxPrompt).toContain(`OpenAlex ${final[0]!.grounding.works[0]!.openalexId}`);
    // OpenAlex was asked with the Refiner's keywords.
    expect(openalex.requests.map((r) => r.query.search)).toContain('governance indicators');
  });

  it('takes the legacy body {idea} as human mode', async () => {
    scriptHumanRun();
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    const { done } = await startAndWait(api, { idea: 'food prices and poverty' });
    expect(done.status).toBe('completed');
    expect(done.mode).toBe('human');
    const session = await api.get(`/api/agents/sessions/${done.sessionId}`);
    expect((session.body as { session: { agentId: string } }).session.agentId).toBe(
      'ideation-human',
    );
  });

  it('stops with the reason when OpenAlex fails, and the log says so', async () => {
    scriptHumanRun();
    openalex.failNext(404, 20);
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    const { done } = await startAndWait(api, { idea: 'food prices', mode: 'human' });
    expect(done.status).toBe('error');
    expect(done.error).toMatch(/OpenAlex/i);
    expect(done.logs.some((l) => l.includes('TERMINATE'))).toBe(false);
    expect(done.finalQuestions).toBeNull();
  });
});

describe('automatic mode', () => {
  it('puts the 5 fastest-growing topics from real counts first, then the questions', async () => {
    const window = trendWindow(new Date());
    openalex.setTopicCounts(sampleTopicCounts(window.recent[1]));
    scriptHumanRun();
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    const { start, done } = await startAndWait(api, { mode: 'automatic' });
    expect(start.logs[0]).toMatch(/^Started Ideation session: 5 phases/);
    expect(start.session).toMatchObject({ agentId: 'ideation-automatic', totalPhases: 5 });
    expect(done.status, done.error ?? '').toBe('completed');
    expect(done.phase).toBe(5);
    expect(done.mode).toBe('automatic');

    // Growth: AI 100->450 per year (+350%), crypto +200%, climate +120%, monetary +33%,
    // income +30%; the space economy grows faster but from 30 works, under the minimum.
    const [r0, r1] = window.recent;
    const [b0, b1] = window.baseline;
    expect(done.topics!.map((tp) => [tp.id, tp.recentCount, tp.baselineCount])).toEqual([
      ['T10649', 1350, 300],
      ['T10839', 2700, 900],
      ['T10315', 3300, 1500],
      ['T10102', 3600, 2700],
      ['T10946', 2340, 1800],
    ]);
    expect(done.topics![0]!.growth).toBeCloseTo(3.5);

    const parsed = parseFinalQuestions(done.logs);
    if (!parsed.found || !parsed.ok) throw new Error('no final questions');
    const { topics, questions } = splitAutomaticItems(parsed.items);
    expect(topics.map((tp) => tp.question)).toEqual([
      `Artificial Intelligence in Economics: 1,350 works in ${r0}-${r1} vs 300 in ${b0}-${b1} (+350%)`,
      `Cryptocurrency and Blockchain Technology: 2,700 works in ${r0}-${r1} vs 900 in ${b0}-${b1} (+200%)`,
      `Climate Change Policy and Economics: 3,300 works in ${r0}-${r1} vs 1,500 in ${b0}-${b1} (+120%)`,
      `Monetary Policy and Economic Impact: 3,600 works in ${r0}-${r1} vs 2,700 in ${b0}-${b1} (+33%)`,
      `Income, Poverty, and Inequality: 2,340 works in ${r0}-${r1} vs 1,800 in ${b0}-${b1} (+30%)`,
    ]);
    expect(questions).toHaveLength(3);
    expect(questions.every((q) => q.question.endsWith('?') && q.justification)).toBe(true);

    // One group_by call per year over the economics field; the Ideator saw the counts.
    const topicCalls = openalex.requests.filter((r) => r.query.group_by === 'primary_topic.id');
    expect(topicCalls).toHaveLength(6);
    expect(
      topicCalls.every((r) => r.query.filter?.includes('primary_topic.field.id:fields/20')),
    ).toBe(true);
    const ideatePrompt = llm.requestsFor('ideation', 'ideate')[0]!.prompt;
    expect(ideatePrompt).toContain('Artificial Intelligence in Economics: 1350 works');
    expect(
      done.logs.some((l) => l.startsWith('Ideator: Trending topic 1: Artificial Intelligence')),
    ).toBe(true);
    expect(agentPanels(done.logs, false).every((p) => p.state === 'completed')).toBe(true);
  });

  it('stops with a clear error when OpenAlex has too few topics to compare', async () => {
    const window = trendWindow(new Date());
    const few = Object.fromEntries(Object.entries(sampleTopicCounts(window.recent[1])).slice(0, 3));
    openalex.setTopicCounts(few);
    scriptHumanRun();
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    const { done } = await startAndWait(api, { mode: 'automatic' });
    expect(done.status).toBe('error');
    expect(done.error).toMatch(/OpenAlex counts gave 3 economics topics with at least 50 works/);
    expect(llm.requestsFor('ideation', 'ideate')).toHaveLength(0);
  });
});

const FABRICATED = 'Fabricated, A. (2031) A paper nobody wrote. doi 10.9999/fabricated.2031';
const mentionsFabricated = (text: string) => /Fabricated|10\.9999/.test(text);

/**
 * A weak model: it renames the questions, leaves fields empty and invents a reference. Only
 * its answers' shapes are scripted; the grounding comes from the OpenAlex fixture as always.
 */
function scriptWeakRun(ranking: Array<{ id: string; justification: string }>) {
  llm.scriptPhase('ideation', 'ideate', {
    json: {
      candidates: [
        'Payments for ecosystem services and conservation on farms',
        '',
        `Governance quality and development, as in ${FABRICATED}`,
        'Food price spikes and poverty',
        '   ',
      ],
    },
  });
  llm.scriptPhase('ideation', 'refine', {
    json: {
      questions: [
        ...REFINED.slice(0, 3),
        { question: '', searchQuery: '' },
        { question: 'Is it?', searchQuery: 'x' },
      ],
    },
  });
  llm.scriptPhase('ideation', 'contextualize', {
    json: {
      questions: [
        {
          id: 'first',
          theory: 'contract theory',
          context: `Payments are cost-effective [W1]. ${FABRICATED} agrees.`,
          citedWorks: ['W1'],
        },
        { id: 'second', theory: '', context: '', citedWorks: [] },
        {
          id: 'third',
          theory: `household welfare (${FABRICATED})`,
          context: 'Prices hit net buyers [W2].',
          citedWorks: ['W2', 'W9'],
        },
      ],
    },
  });
  llm.scriptPhase('ideation', 'finalize', { json: { ranking } });
}

function expectNoFabricatedReference(done: IdeationLogsReply) {
  for (const panel of agentPanels(done.logs, false)) {
    for (const line of panel.lines) expect(mentionsFabricated(line), line).toBe(false);
  }
  // The log names a removal, and nothing else mentions the invented work.
  for (const line of done.logs.filter(mentionsFabricated)) {
    expect(line).toMatch(/^Removed a reference to a work not retrieved in this session: /);
  }
  expect(done.logs.some((l) => l.startsWith('Removed a reference'))).toBe(true);
  expect(mentionsFabricated(JSON.stringify(done.grounding))).toBe(false);
  expect(mentionsFabricated(JSON.stringify(done.finalQuestions))).toBe(false);
}

describe('a weak model', () => {
  it('renaming the questions, leaving fields empty and inventing a reference keeps the computed work', async () => {
    scriptWeakRun([
      { id: 'best', justification: `Few works match it. ${FABRICATED}` },
      { id: 'next', justification: '' },
      { id: 'last', justification: 'Governance data are rich [W1].' },
    ]);
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    const created = await api.post('/api/projects', {
      title: 'Weak model',
      researchArea: 'Development Economics',
    });
    const projectId = (created.body as { data: { project: { id: string } } }).data.project.id;
    const { done } = await startAndWait(api, { idea: 'conservation and poverty', projectId });
    expect(done.status, done.error ?? '').toBe('completed');

    // Empty candidates and refined questions left out; the three questions kept.
    expect(done.logs).toContain('Ideator: Left out 2 empty or unusable candidates of the model');
    // The Contextualizer's answers under other names matched by position: all grounding kept.
    expect(done.logs).toContain(
      'Contextualizer: The model named the questions differently; its answers are matched to them in order',
    );
    const grounding = done.grounding!;
    expect(grounding.map((q) => q.id)).toEqual(['Q1', 'Q2', 'Q3']);
    expect(grounding.map((q) => q.theory.slice(0, 17))).toEqual([
      'contract theory',
      '',
      'household welfare',
    ]);
    expect(grounding.map((q) => q.modelGaps)).toEqual([[], ['theory', 'context'], []]);
    for (const q of grounding) {
      expect(q.grounding.works.map((w) => w.openalexId)).toEqual(
        openalex.worksFor(q.grounding.searchQuery, 5).map((w) => w.id),
      );
    }
    expect(done.logs).toContain(
      'Contextualizer: Q2: the model supplied no theory or context; its works and counts are kept',
    );

    // The ranking, renamed too, matched by position; the empty justification marked.
    const final = done.finalQuestions!;
    expect(final.map((q) => q.id)).toEqual(['Q1', 'Q2', 'Q3']);
    expect(final[1]!.modelGaps).toEqual(['theory', 'context', 'justification']);
    expect(final[0]!.justification).toMatch(/^Few works match it\./);
    const parsed = parseFinalQuestions(done.logs);
    expect(parsed.found && parsed.ok && parsed.items.map((i) => i.justification)).toEqual([
      final[0]!.justification,
      undefined,
      final[2]!.justification,
    ]);

    expectNoFabricatedReference(done);

    // The saved question set: no invented reference, the model's parts marked, origins listed.
    const final0 = await waitForLogs(api, done.sessionId, (r) => r.status === 'completed');
    expect(final0.status).toBe('completed');
    const docs = await api.get(`/api/documents?projectId=${projectId}`);
    const listed = (docs.body as { data: { documents: Array<{ id: string; name: string }> } }).data
      .documents;
    const doc = listed.find((d) => d.name === 'Research questions: conservation and poverty');
    expect(doc).toBeDefined();
    const content = (
      (await api.get(`/api/documents/${doc!.id}`)).body as {
        data: { document: { content: string } };
      }
    ).data.document.content;
    expect(mentionsFabricated(content)).toBe(false);
    expect(content).toContain('<!-- origin:model -->');
    expect(content).toContain('The model supplied no justification for this question.');
    expect(content).toContain(`OpenAlex ${final[0]!.grounding.works[0]!.openalexId}`);
    const provenance = provenanceReplySchema.parse(
      (await api.get(`/api/documents/${doc!.id}/provenance`)).body,
    ).provenance;
    expect(provenance.team).toBe('ideation');
    expect(provenance.items).toEqual(
      expect.arrayContaining([
        {
          key: `reference:${final[0]!.grounding.works[0]!.openalexId}`,
          origin: 'retrieved',
          ref: expect.any(String),
        },
        { key: 'table:grounding-Q1', origin: 'computed', ref: 'openalex:counts-by-year' },
        { key: 'passage:theory-Q1', origin: 'model' },
        { key: 'passage:justification-Q1', origin: 'model' },
      ]),
    );
    expect(provenance.items.some((i) => i.key === 'passage:justification-Q2')).toBe(false);
    expect(provenance.records.map((r) => r.id)).toEqual(
      expect.arrayContaining(final[0]!.grounding.works.map((w) => w.openalexId)),
    );

    // Saved into the project: the question texts only, none invented.
    const saved = await api.post(`${BASE}/save`, { sessionId: done.sessionId, projectId });
    expect(saved.status).toBe(200);
    expect(mentionsFabricated(JSON.stringify(saved.body))).toBe(false);
  });

  it('keeps the grounded questions in order when the model ranks none of them', async () => {
    scriptWeakRun([{ id: 'the best one', justification: 'It is best.' }]);
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    const { done } = await startAndWait(api, { idea: 'conservation and poverty' });
    expect(done.status, done.error ?? '').toBe('completed');
    const final = done.finalQuestions!;
    expect(final.map((q) => [q.rank, q.id])).toEqual([
      [1, 'Q1'],
      [2, 'Q2'],
      [3, 'Q3'],
    ]);
    expect(final.every((q) => q.modelGaps.includes('ranking'))).toBe(true);
    expect(done.logs).toContain(
      'Finalizer: Ignored a ranking entry for unknown or repeated id the best one',
    );
    expect(done.logs).toContain(
      "Finalizer: The model ranked 0 of the questions; Q1, Q2, Q3 follow in the Refiner's order, marked as not ranked by the model",
    );
    expectNoFabricatedReference(done);
  });
});

describe('bad requests', () => {
  it('refuses blank ideas, unknown modes, long ideas and anonymous callers with clear 4xx', async () => {
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    for (const body of [{ idea: '   ', mode: 'human' }, {}, { mode: 'human' }]) {
      const res = await api.post(BASE, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false });
      expect((res.body as { error: string }).error).toMatch(/idea is required/);
    }
    expect((await api.post(BASE, { idea: 'x', mode: 'dreaming' })).status).toBe(400);
    expect((await api.post(BASE, { idea: 'x'.repeat(4001) })).status).toBe(400);
    expect((await api.post(BASE, { idea: 42 })).status).toBe(400);
    const anon = await t.app.inject({ method: 'POST', url: BASE, payload: { idea: 'x' } });
    expect(anon.statusCode).toBe(401);
    expect(llm.requests).toHaveLength(0);
  });

  it("answers 400 for a malformed session id and 404 for others' or unknown sessions", async () => {
    scriptHumanRun();
    const owner = await createUser(t.app);
    const other = await createUser(t.app);
    const api = client(t.app, owner.accessToken);
    const { start } = await startAndWait(api, { idea: 'food prices' });
    expect((await api.get(`${BASE}/logs/not-a-uuid`)).status).toBe(400);
    const unknown = await api.get(`${BASE}/logs/${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false });
    const theirs = await client(t.app, other.accessToken).get(`${BASE}/logs/${start.sessionId}`);
    expect(theirs.status).toBe(404);
  });

  it('refuses a viewer account and a project the user cannot see', async () => {
    const viewer = await createUser(t.app, { role: 'viewer' });
    const res = await client(t.app, viewer.accessToken).post(BASE, { idea: 'wages' });
    expect(res.status).toBe(403);
    const user = await createUser(t.app);
    const missing = await client(t.app, user.accessToken).post(BASE, {
      idea: 'wages',
      projectId: crypto.randomUUID(),
    });
    expect(missing.status).toBe(404);
  });
});

describe('without a language model', () => {
  it('fails at once in both modes with the configure-a-model message', async () => {
    const bare = await createTestApp({ OPENALEX_BASE_URL: openalex.baseUrl });
    try {
      const user = await createUser(bare.app);
      const api = client(bare.app, user.accessToken);
      for (const body of [{ idea: 'wages', mode: 'human' }, { mode: 'automatic' }]) {
        const res = await api.post(BASE, body);
        expect(res.status).toBe(422);
        expect((res.body as { error: string }).error).toMatch(/No language model is configured/);
      }
      // Nothing ran: not even the computed trend discovery.
      expect(openalex.requests).toHaveLength(0);
    } finally {
      await bare.close();
    }
  });
});

describe('saving to a project', () => {
  it('adds the final questions with one call, only where the user may edit', async () => {
    const owner = await createUser(t.app);
    const viewer = await createUser(t.app);
    const stranger = await createUser(t.app);
    const api = client(t.app, owner.accessToken);
    const created = await api.post('/api/projects', {
      title: 'Food and conservation',
      researchArea: 'Development Economics',
      researchQuestions: [REFINED[0]!.question],
    });
    expect(created.status).toBe(201);
    const projectId = (created.body as { data: { project: { id: string } } }).data.project.id;
    expect(
      (
        await api.post(`/api/projects/${projectId}/members`, {
          email: viewer.email,
          role: 'viewer',
        })
      ).status,
    ).toBe(200);

    // Not final yet: 409.
    scriptHumanRun({ ideateDelayMs: 1500 });
    const started = await api.post(BASE, { idea: 'conservation payments', projectId });
    const sessionId = startIdeationReplySchema.parse(started.body).sessionId;
    const early = await api.post(`${BASE}/save`, { sessionId, projectId });
    expect(early.status).toBe(409);
    expect((early.body as { error: string }).error).toMatch(/not final yet/);

    const done = await waitForLogs(api, sessionId, (r) => r.status !== 'processing');
    expect(done.status).toBe('completed');
    expect(done.projectId).toBe(projectId);
    const finalTexts = done.finalQuestions!.map((q) => q.question);

    // Not one of the final questions: 400.
    const made = await api.post(`${BASE}/save`, {
      sessionId,
      projectId,
      questions: ['Is this question invented?'],
    });
    expect(made.status).toBe(400);
    expect((made.body as { error: string }).error).toMatch(/final questions can be saved/);

    // The viewer member reads the project but cannot write into it; a stranger cannot see it.
    const viewerSession = await client(t.app, viewer.accessToken).post(`${BASE}/save`, {
      sessionId,
      projectId,
    });
    // A viewer of the project reads its sessions, but cannot write into the project.
    expect(viewerSession.status).toBe(403);
    const ownProject = await client(t.app, stranger.accessToken).post('/api/projects', {
      title: 'Elsewhere',
      researchArea: 'Labor Economics',
    });
    const strangerProject = (ownProject.body as { data: { project: { id: string } } }).data.project
      .id;
    const foreign = await api.post(`${BASE}/save`, { sessionId, projectId: strangerProject });
    expect(foreign.status).toBe(404);

    const saved = await api.post(`${BASE}/save`, { sessionId, projectId });
    expect(saved.status).toBe(200);
    const { data } = saveIdeationReplySchema.parse(saved.body);
    expect(data.researchQuestions).toEqual([
      REFINED[0]!.question,
      ...finalTexts.filter((q) => q !== REFINED[0]!.question),
    ]);
    expect(data.added).toEqual(finalTexts.filter((q) => q !== REFINED[0]!.question));
    const project = await api.get(`/api/projects/${projectId}`);
    expect(
      (project.body as { data: { project: { researchQuestions: string[] } } }).data.project
        .researchQuestions,
    ).toEqual(data.researchQuestions);

    // A second save adds nothing.
    const again = await api.post(`${BASE}/save`, {
      sessionId,
      projectId,
      questions: [finalTexts[0]],
    });
    expect(saveIdeationReplySchema.parse(again.body).data.added).toEqual([]);
  });

  it('refuses to save into a project where the user is a viewer member', async () => {
    scriptHumanRun();
    const owner = await createUser(t.app);
    const member = await createUser(t.app);
    const ownerApi = client(t.app, owner.accessToken);
    const created = await ownerApi.post('/api/projects', {
      title: 'Shared',
      researchArea: 'Labor Economics',
    });
    const projectId = (created.body as { data: { project: { id: string } } }).data.project.id;
    await ownerApi.post(`/api/projects/${projectId}/members`, {
      email: member.email,
      role: 'viewer',
    });
    const api = client(t.app, member.accessToken);
    const { done } = await startAndWait(api, { idea: 'food prices' });
    expect(done.status).toBe('completed');
    const res = await api.post(`${BASE}/save`, { sessionId: done.sessionId, projectId });
    expect(res.status).toBe(403);
    expect((res.body as { error: string }).error).toMatch(/cannot save|not change/);
  });
});
