import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_PASSAGE_START, provenanceReplySchema } from '../../../../common/provenance';
import { modelExportReplySchema } from '../../../../common/teams/model';
import { canonicalModel } from '../../../engines/models/library';
import { createTestApp, createUser, type TestApp } from '../../../../test/app';
import { client } from '../../../../test/client';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../../test/llm-server';
import { sessionClient, waitingAt } from '../../../../test/teams/helpers';
import { modelStatus } from '../../../../test/teams/model-status';
import { asProposal, type Proposal } from './prompts';

/**
 * A weak model never loses the computed model: against the scripted model server, a model that
 * invents references, leaves answers empty and renames parameters. Its fabricated references
 * are removed from every text (with a log line each) while a library reference it cites stays;
 * what it left empty is listed as not supplied; its renamed parameters fail the engine's checks
 * and the library's equations are solved instead; feedback it reads without naming a parameter
 * changes nothing and says so; the session completes with the computed results, and the saved
 * theory marks the model's passage and carries its provenance.
 */

let llm: ScriptedLlmServer;
let t: TestApp;

beforeAll(async () => {
  llm = await startScriptedLlmServer();
  t = await createTestApp({
    LLM_PROVIDER: 'openai-compatible',
    OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
    LLM_MODEL: 'scripted-model',
  });
});

afterAll(async () => {
  await t?.close();
  await llm?.close();
});

const BASE = '/api/agents/model-team';
const FABRICATED = 'Fabricated, A. (2031). A Theory of Everything. doi 10.9999/fabricated.2031';

/** The NK proposal with `beta` renamed in the parameter list only (the equations keep it). */
function renamedProposal(): Proposal {
  const p = asProposal(canonicalModel('NK'));
  return {
    explanation: '   ',
    ...p,
    parameters: p.parameters.map((x) =>
      x.name === 'beta' ? { ...x, name: 'discount', source: '' } : x,
    ),
  };
}

describe('Model team with a weak model', () => {
  it('keeps the computed model, removes invented references and marks what the model left out', async () => {
    llm.reset();
    llm.scriptPhase('model', 'theory', {
      json: {
        framework: [
          'Sticky prices make monetary policy matter (Galí 2015).',
          '',
          `Firms reset prices rarely, as shown by Fabricated et al. (2031) and [7].`,
          '',
          '## References',
          '',
          `- ${FABRICATED}`,
        ].join('\n'),
        assumptions: ['', 'Prices are sticky (Nobody and Someone, 2030)'],
        mechanisms: [],
        agents: ['Households'],
        markets: [''],
        references: [1, 42],
      },
    });
    llm.scriptPhase('model', 'model', { json: renamedProposal() });
    llm.scriptPhase('model', 'calibration', {
      json: { changes: [{ name: 'Beta', value: 0.5 }], note: '' },
    });
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    const sessions = sessionClient(t.app, user.accessToken);
    const start = await api.post(`${BASE}/develop`, {
      modelType: 'NK',
      focus: 'Price stickiness',
      periods: 100,
    });
    expect(start.status).toBe(201);
    const id = (start.body as { sessionId: string }).sessionId;

    await sessions.waitFor(id, waitingAt(1), 30_000);
    let s = await modelStatus(t.app, user.accessToken, id);
    const theory = s.theoryFramework!;
    expect(theory.source).toBe('model');
    const shown = [theory.framework, ...theory.assumptions, ...theory.markets].join('\n');
    expect(shown).not.toMatch(/Fabricated|10\.9999|Nobody|\[7\]/);
    // a library work cited by author and year is known, so it stays
    expect(theory.framework).toContain('(Galí 2015)');
    expect(theory.assumptions).toEqual(['Prices are sticky']);
    expect(theory.notSupplied).toEqual(
      expect.arrayContaining([
        'The model left 1 of its assumptions empty',
        'The model listed no mechanisms',
        'The model listed no markets',
      ]),
    );
    const logs = s.logs.join('\n');
    expect(logs).toMatch(
      /Removed a reference to a work not retrieved in this session: .*Fabricated/,
    );
    expect(logs).toMatch(/Removed a reference to a work not retrieved in this session: .*Nobody/);
    expect(logs).toMatch(/Dropped 1 reference number/);

    await api.post(`${BASE}/feedback`, { sessionId: id, feedback: 'Approved', checkpoint: 1 });
    await sessions.waitFor(id, waitingAt(2), 60_000);
    s = await modelStatus(t.app, user.accessToken, id);
    const m = s.mathematicalModel!;
    // the renamed parameter never passes: the library's equations are solved instead
    expect(m.source).toBe('library');
    expect(m.checks.at(-1)).toMatchObject({ proposal: 'library', ok: true });
    expect(m.checks[0]).toMatchObject({ proposal: 'model', ok: false });
    expect(m.explanation).toBeNull();
    expect(m.parameterSources.every((p) => p.origin === 'library')).toBe(true);

    await api.post(`${BASE}/feedback`, { sessionId: id, feedback: 'Approved', checkpoint: 2 });
    await sessions.waitFor(id, waitingAt(3), 60_000);
    await api.post(`${BASE}/feedback`, {
      sessionId: id,
      feedback: 'Make households much less patient',
      checkpoint: 3,
    });
    await sessions.waitFor(
      id,
      (x) =>
        waitingAt(3)(x) &&
        x.results.some(
          (r) =>
            r.key === 'calibration' && (r.result as { feedback?: string | null }).feedback !== null,
        ),
      60_000,
    );
    s = await modelStatus(t.app, user.accessToken, id);
    const cal = s.calibrationResults!;
    expect(cal.feedbackNote).toMatch(/named no parameter value that can be set/);
    expect(cal.feedbackNoteByModel).toBe(false);
    expect(cal.parameters.find((p) => p.name === 'beta')).toMatchObject({
      value: 0.99,
      origin: 'library',
      changedByFeedback: false,
    });
    expect(cal.run.irfs.e_v).toBeDefined();

    await api.post(`${BASE}/feedback`, { sessionId: id, feedback: 'Approved', checkpoint: 3 });
    await sessions.waitFor(id, (x) => x.status === 'completed', 60_000);
    s = await modelStatus(t.app, user.accessToken, id);
    expect(s.completed!.documents).toHaveLength(4);
    const theoryDoc = s.completed!.documents.find((d) => d.kind === 'theory')!;
    const saved = JSON.stringify((await api.get(`/api/documents/${theoryDoc.id}`)).body);
    expect(saved).not.toMatch(/Fabricated|10\.9999/);
    expect(saved).toContain(MODEL_PASSAGE_START);
    const provenance = provenanceReplySchema.parse(
      (await api.get(`/api/documents/${theoryDoc.id}/provenance`)).body,
    ).provenance;
    expect(provenance.items).toEqual(
      expect.arrayContaining([{ key: 'passage:theory', origin: 'model' }]),
    );
    expect(provenance.records.map((r) => r.source)).toContain('library');
    const calibrationDoc = s.completed!.documents.find((d) => d.kind === 'calibration')!;
    const calibrationItems = provenanceReplySchema.parse(
      (await api.get(`/api/documents/${calibrationDoc.id}/provenance`)).body,
    ).provenance.items;
    expect(calibrationItems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'table:irfs', origin: 'computed' }),
        expect.objectContaining({ key: 'table:moments', origin: 'computed' }),
        expect.objectContaining({ key: 'parameter:beta', origin: 'library' }),
      ]),
    );
    const md = modelExportReplySchema.parse((await api.get(`${BASE}/export/${id}`)).body).content;
    expect(md).not.toMatch(/Fabricated|10\.9999/);
    expect(md).toContain('## Not supplied by the model');
  }, 240_000);
});
