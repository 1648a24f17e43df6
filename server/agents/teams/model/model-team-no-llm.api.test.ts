import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelExportReply } from '../../../../common/teams/model';
import { createTestApp, createUser, type TestApp } from '../../../../test/app';
import { client } from '../../../../test/client';
import { sessionClient, waitingAt } from '../../../../test/teams/helpers';
import { modelStatus } from '../../../../test/teams/model-status';

/**
 * The Model team on a server without any language model: the canonical model of the chosen type
 * runs end to end (its framework shown as the library's text, its equations solved and
 * calibrated, documents saved), and each result says that the adaptation to the focus is missing.
 * Feedback that sets a parameter (`beta = 0.985`) is read by code and re-runs the calibration.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

const BASE = '/api/agents/model-team';

const status = (token: string, id: string) => modelStatus(t.app, token, id);

describe('Model team without a language model', () => {
  it('runs the canonical RBC model through the three checkpoints to the saved documents', async () => {
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    const sessions = sessionClient(t.app, user.accessToken);

    const start = await api.post(`${BASE}/develop`, {
      modelType: 'RBC',
      focus: 'Productivity shocks and hours in a small open economy',
      periods: 'not a number',
    });
    expect(start.status, JSON.stringify(start.body)).toBe(201);
    const id = (start.body as { sessionId: string }).sessionId;

    // Checkpoint 1: the library's framework, labelled, with the reason the adaptation is missing
    await sessions.waitFor(id, waitingAt(1), 30_000);
    let s = await status(user.accessToken, id);
    expect(s.periods).toBe(240);
    expect(s.phase).toBe(1);
    expect(s.theoryFramework).toMatchObject({ source: 'library', modelType: 'RBC' });
    expect(s.theoryFramework!.framework).toBe(s.theoryFramework!.libraryFramework);
    expect(s.theoryFramework!.adaptationMissing).toMatch(/model/i);
    expect(s.logs.join('\n')).toMatch(/The framework was not adapted to the focus/);

    // Checkpoint 2: the canonical equations, checked by the engine
    expect(
      (await api.post(`${BASE}/feedback`, { sessionId: id, feedback: 'Approved', checkpoint: 1 }))
        .status,
    ).toBe(200);
    await sessions.waitFor(id, waitingAt(2), 30_000);
    s = await status(user.accessToken, id);
    const model = s.mathematicalModel!;
    expect(model.source).toBe('library');
    expect(model.checks).toEqual([
      expect.objectContaining({ proposal: 'library', ok: true, stage: 'solution' }),
    ]);
    expect(model.blanchardKahn.satisfied).toBe(true);
    expect(model.equations).toHaveLength(8);
    // the equations shown are printed from the trees the engine solved, not hand-written LaTeX
    expect(model.equations[0]).toEqual({
      label: 'Euler equation',
      text: 'exp(-c) = beta*exp(-c(+1))*(exp(r(+1)) + 1 - delta)',
      latex: 'e^{-c_{t}} = \\beta \\, e^{-c_{t+1}} \\, \\left(e^{r_{t+1}} + 1 - \\delta\\right)',
      modelLatex: null,
    });
    expect(model.parameterSources.find((p) => p.name === 'beta')).toMatchObject({
      origin: 'library',
      source: expect.stringContaining('King, Plosser and Rebelo 1988'),
    });
    expect(model.modFile).toMatch(/stoch_simul\(order=1, irf=40/);
    expect(Math.exp(model.steadyState.n!)).toBeCloseTo(1 / 3, 10);

    // Checkpoint 3: calibration with moment matching, IRFs, moments and a simulation
    await api.post(`${BASE}/feedback`, { sessionId: id, feedback: 'Approved', checkpoint: 2 });
    await sessions.waitFor(id, waitingAt(3), 60_000);
    s = await status(user.accessToken, id);
    let cal = s.calibrationResults!;
    expect(cal.estimation).not.toBeNull();
    expect(cal.estimation!.objectiveAfter).toBeLessThan(cal.estimation!.objectiveBefore);
    expect(cal.run.irfs.e_a!.y).toHaveLength(40);
    expect(cal.run.simulation.series.y).toHaveLength(240);
    expect(cal.parameters.find((p) => p.name === 'sigma_a')).toMatchObject({
      estimated: true,
      origin: 'computed',
      source: expect.stringMatching(/^Estimated by moment matching to std\(y\) = /),
    });
    expect(cal.parameters.find((p) => p.name === 'beta')).toMatchObject({
      value: 0.99,
      changedByFeedback: false,
    });
    const betaBefore = cal.run.steadyState.k!;

    // Feedback that changes a parameter, read by code: the calibration is computed again
    const fb = await api.post(`${BASE}/feedback`, {
      sessionId: id,
      feedback: 'Please use beta = 0.985 instead.',
      checkpoint: 3,
    });
    expect(fb.status).toBe(200);
    await sessions.waitFor(
      id,
      (x) =>
        waitingAt(3)(x) &&
        x.results.some(
          (r) =>
            r.key === 'calibration' &&
            (r.result as { feedback?: string | null }).feedback?.includes('beta') === true,
        ),
      60_000,
    );
    s = await status(user.accessToken, id);
    cal = s.calibrationResults!;
    const beta = cal.parameters.find((p) => p.name === 'beta')!;
    expect(beta).toMatchObject({
      value: 0.985,
      changedByFeedback: true,
      origin: 'researcher',
      source: 'Set by the researcher: beta = 0.985',
    });
    expect(cal.run.steadyState.k!).toBeLessThan(betaBefore); // less patient: less capital
    expect(s.logs.join('\n')).toMatch(/Feedback sets beta = 0.985/);

    // Completed: four documents
    await api.post(`${BASE}/feedback`, { sessionId: id, feedback: 'Approved', checkpoint: 3 });
    await sessions.waitFor(id, (x) => x.status === 'completed', 30_000);
    s = await status(user.accessToken, id);
    expect(s.phase).toBe(4);
    expect(s.completed!.documents.map((d) => d.kind)).toEqual([
      'theory',
      'model',
      'calibration',
      'mod',
    ]);
    const docs = await api.get('/api/documents?limit=50');
    expect(docs.status).toBe(200);
    expect(JSON.stringify(docs.body)).toContain('econagents_rbc.mod');

    // Export in the three formats
    const md = await api.get(`${BASE}/export/${id}?format=markdown`);
    expect(md.status).toBe(200);
    const mdBody = md.body as ModelExportReply;
    expect(mdBody.fileName).toMatch(/^model-rbc-\d{4}-\d{2}-\d{2}\.md$/);
    expect(mdBody.content).toContain("> The library's text");
    expect(mdBody.content).toContain('$$');
    expect(mdBody.content).toContain('## Moment matching');
    // the library's justification of the old beta appears nowhere once the researcher set it
    expect(mdBody.content).toContain('Set by the researcher: beta = 0.985');
    expect(mdBody.content).not.toContain('4% annual real interest rate');
    const mod = (await api.get(`${BASE}/export/${id}?format=mod`)).body as ModelExportReply;
    expect(mod.content).toMatch(/^var\n/m);
    expect(mod.fileName).toMatch(/\.mod$/);
    // the session's final values, each with its source as the comment
    expect(mod.content).toContain('beta = 0.985; // Set by the researcher: beta = 0.985');
    const sigma = cal.parameters.find((p) => p.name === 'sigma_a')!;
    expect(sigma.value).not.toBe(0.007);
    expect(mod.content).toContain(`sigma_a = ${sigma.value}; // Estimated by moment matching`);
    expect(mod.content).not.toContain('4% annual real interest rate');
    // the saved .mod document is the same file, and its provenance gives each value's origin
    const modDoc = s.completed!.documents.find((d) => d.kind === 'mod')!;
    const saved = await api.get(`/api/documents/${modDoc.id}`);
    expect(JSON.stringify(saved.body)).toContain('beta = 0.985; // Set by the researcher');
    const provenance = await api.get(`/api/documents/${modDoc.id}/provenance`);
    expect(provenance.status).toBe(200);
    const items = (provenance.body as { provenance: { items: { key: string; origin: string }[] } })
      .provenance.items;
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'parameter:beta', origin: 'researcher' }),
        expect.objectContaining({ key: 'parameter:sigma_a', origin: 'computed' }),
        expect.objectContaining({ key: 'parameter:alpha', origin: 'library' }),
      ]),
    );
    const json = (await api.get(`${BASE}/export/${id}?format=json`)).body as ModelExportReply;
    expect(JSON.parse(json.content)).toMatchObject({ modelType: 'RBC', periods: 240 });
  }, 180_000);

  it('runs a model with a deterministic scenario (OLG) and shows the transition', async () => {
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    const sessions = sessionClient(t.app, user.accessToken);
    const start = await api.post(`${BASE}/develop`, {
      modelType: 'OLG',
      focus: 'Capital deepening in an ageing society',
      periods: 60,
    });
    const id = (start.body as { sessionId: string }).sessionId;
    for (const checkpoint of [1, 2]) {
      await sessions.waitFor(id, waitingAt(checkpoint), 30_000);
      await api.post(`${BASE}/feedback`, { sessionId: id, feedback: 'Approved', checkpoint });
    }
    await sessions.waitFor(id, waitingAt(3), 60_000);
    const s = await status(user.accessToken, id);
    const cal = s.calibrationResults!;
    expect(cal.estimation).toBeNull();
    expect(cal.estimationNote).toMatch(/no target moments/);
    expect(cal.run.transition!.paths.k).toHaveLength(62);
    expect(cal.run.transition!.paths.k![0]).toBeCloseTo(0.5 * cal.run.steadyState.k!, 12);
  }, 120_000);
});
