import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { provenanceReplySchema, sessionProvenanceSchema } from '../../../common/provenance';
import { documentReplySchema } from '../../../common/documents';
import { agentSessions } from '../../db/schema';
import { createTestApp, createUser, type TestApp } from '../../../test/app';
import { client } from '../../../test/client';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../test/llm-server';
import { EXAMPLE_WORK, exampleTeam } from '../../../test/teams/example-team/team';
import { sessionClient, waitingAt } from '../../../test/teams/helpers';
import { createPhaseHarness } from '../../../test/teams/phase-harness';

/**
 * Provenance and the citation gate through the kit's example team: the work it records is kept
 * in the session, the model's invented reference never reaches the saved document, and the
 * document's provenance (GET /api/documents/:id/provenance) lists the session, model, phases,
 * records, computations and the document's items, with the documents' visibility rules.
 */
let llm: ScriptedLlmServer;
let t: TestApp;

const FABRICATED =
  'Fabricated, A. (2031). Invented results on everything. doi 10.9999/fabricated.2031';

beforeAll(async () => {
  llm = await startScriptedLlmServer();
  t = await createTestApp(
    {
      LLM_PROVIDER: 'openai-compatible',
      OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'scripted-model',
    },
    { extraTeams: [exampleTeam] },
  );
});

afterAll(async () => {
  await t?.close();
  await llm?.close();
});

describe('a saved document carries its provenance', () => {
  it('keeps the recorded work, removes the invented one, and lists the items', async () => {
    llm.reset();
    llm.scriptPhase('example', 'summarise', {
      text: `Wages follow output (Smith, 2019).\n\n${FABRICATED}\n\nSee also [4].`,
    });
    const owner = await createUser(t.app);
    const api = client(t.app, owner.accessToken);
    const sessions = sessionClient(t.app, owner.accessToken);
    const start = await api.post('/api/example-team/start', {
      text: 'wages and output',
      save: true,
    });
    expect(start.status).toBe(201);
    const sessionId = (start.body as { sessionId: string }).sessionId;
    const waiting = await sessions.waitFor(sessionId, waitingAt(1));
    const documentId = (waiting.results.at(-1)?.result as { documentId: string }).documentId;

    const doc = documentReplySchema.parse((await api.get(`/api/documents/${documentId}`)).body);
    expect(doc.data.document.content).toBe('Wages follow output (Smith, 2019).\n\nSee also.');
    const logs = await sessions.logLines(sessionId);
    const removals = logs.filter((l) => l.startsWith('Removed a reference'));
    expect(removals).toEqual([
      `Removed a reference to a work not retrieved in this session: ${FABRICATED} (summary)`,
      'Removed a reference to a work not retrieved in this session: [4] (summary)',
    ]);

    const res = await api.get(`/api/documents/${documentId}/provenance`);
    expect(res.status).toBe(200);
    const { provenance } = provenanceReplySchema.parse(res.body);
    expect(provenance).toMatchObject({
      sessionId,
      team: 'example',
      projectId: null,
      model: { provider: 'openai-compatible', id: 'scripted-model' },
      inputs: [],
      records: [
        {
          kind: 'work',
          id: EXAMPLE_WORK.id,
          source: 'example',
          doi: EXAMPLE_WORK.doi,
          title: EXAMPLE_WORK.title,
        },
      ],
      computations: [
        { id: 'count:words', engine: 'example-counter', what: 'Word count of the input text' },
      ],
      items: [
        { key: 'table:count', origin: 'computed', ref: 'count:words' },
        { key: 'reference:W-example-1', origin: 'retrieved', ref: 'W-example-1' },
        { key: 'passage:summary', origin: 'model' },
      ],
    });
    // The computed phase had finished; the phase that saved the document was still running.
    expect(provenance.phases.map((p) => [p.key, p.completedAt !== null])).toEqual([
      ['count', true],
      ['summarise', false],
    ]);
    expect(provenance.phases.every((p) => p.startedAt !== null)).toBe(true);

    // The session's own provenance was written with each phase's result.
    const [row] = await t.ctx.db
      .select({ provenance: agentSessions.provenance })
      .from(agentSessions)
      .where(eq(agentSessions.id, sessionId));
    const stored = sessionProvenanceSchema.parse(row?.provenance);
    expect(stored.phases.map((p) => p.key)).toEqual(['count', 'summarise']);
    expect(stored.phases.every((p) => p.completedAt !== null)).toBe(true);
    expect(stored.works.map((w) => w.id)).toEqual([EXAMPLE_WORK.id]);
    expect(stored.model).toEqual({ provider: 'openai-compatible', id: 'scripted-model' });

    // Another user gets the same 404 as for a document that does not exist.
    const other = client(t.app, (await createUser(t.app)).accessToken);
    const hidden = await other.get(`/api/documents/${documentId}/provenance`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toMatchObject({ success: false });
    const missing = await api.get('/api/documents/00000000-0000-4000-8000-000000000000/provenance');
    expect(missing.status).toBe(404);
    expect((await api.get('/api/documents/not-a-uuid/provenance')).status).toBe(400);
  });

  it('gives a document nobody saved from a session an empty provenance', async () => {
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    const created = await api.post('/api/documents', {
      name: 'Notes',
      category: 'research_report',
      content: 'My own notes (Smith, 2019).',
    });
    expect(created.status).toBe(201);
    const doc = documentReplySchema.parse(created.body).data.document;
    const { provenance } = provenanceReplySchema.parse(
      (await api.get(`/api/documents/${doc.id}/provenance`)).body,
    );
    expect(provenance).toEqual({
      sessionId: null,
      team: null,
      projectId: null,
      createdAt: doc.created,
      model: null,
      phases: [],
      inputs: [],
      records: [],
      computations: [],
      items: [],
    });
  });

  it('is described in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/api/json' });
    const paths = (res.json() as { paths: Record<string, { get?: unknown }> }).paths;
    expect(paths['/api/documents/{id}/provenance']?.get).toBeDefined();
  });
});

describe('the phase harness and provenance', () => {
  it("gates a phase's text against the works of earlier phases given to it", async () => {
    const h = await createPhaseHarness({
      env: {
        LLM_PROVIDER: 'openai-compatible',
        OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
        LLM_MODEL: 'scripted-model',
      },
    });
    try {
      const results = { count: { words: 2, longest: 'wages', greeting: 'Hello, researcher' } };
      llm.reset();
      llm.scriptPhase(
        'example',
        'summarise',
        { text: 'Wages follow output (Smith, 2019).' },
        { text: 'Wages follow output (Smith, 2019).' },
      );
      // Without the earlier phase's record the work was not retrieved in this session.
      const alone = await h.run(exampleTeam, 'summarise', { input: { text: 'wages' }, results });
      expect(alone.result).toMatchObject({ summary: 'Wages follow output.' });
      expect(alone.logs.map((l) => l.message)).toContain(
        'Removed a reference to a work not retrieved in this session: (Smith, 2019) (summary)',
      );
      expect(alone.provenance.phases.map((p) => p.key)).toEqual(['summarise']);
      expect(alone.provenance.model).toEqual({
        provider: 'openai-compatible',
        id: 'scripted-model',
      });

      const withWork = await h.run(exampleTeam, 'summarise', {
        input: { text: 'wages' },
        results,
        provenance: {
          model: null,
          phases: [{ key: 'count', startedAt: null, completedAt: '2026-01-01T00:00:00.000Z' }],
          inputs: [],
          works: [EXAMPLE_WORK],
          computations: [],
        },
      });
      expect(withWork.result).toMatchObject({ summary: 'Wages follow output (Smith, 2019).' });
      expect(withWork.provenance.phases.map((p) => p.key)).toEqual(['count', 'summarise']);
    } finally {
      await h.close();
    }
  });
});
