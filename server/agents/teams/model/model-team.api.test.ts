import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelExportReply } from '../../../../common/teams/model';
import { canonicalModel } from '../../../engines/models/library';
import { createTestApp, createUser, type TestApp } from '../../../../test/app';
import { client } from '../../../../test/client';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../../test/llm-server';
import { sessionClient, waitingAt } from '../../../../test/teams/helpers';
import { asProposal, type Proposal } from './prompts';
import { modelStatus } from '../../../../test/teams/model-status';

/**
 * The Model team through HTTP with the scripted model server: the framework adapted to the focus
 * (a reference number not on the library's list dropped), a model proposal the engine rejects
 * and the repaired one it accepts, a proposal that never passes (the canonical model is kept,
 * every check shown), feedback at checkpoint 3 turned into a parameter value by the model, and
 * the bad requests.
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

/** The NK model with a cost-push shock in the Phillips curve: what the model "proposes". */
function costPushProposal(phillips: string): Proposal {
  const p = asProposal(canonicalModel('NK'));
  return {
    explanation:
      'Adds a cost-push shock u to the Phillips curve, as the focus on supply shocks needs.',
    endogenous: [...p.endogenous, { name: 'u', label: 'cost-push shock', latex: 'u' }],
    exogenous: [
      ...p.exogenous,
      { name: 'e_u', label: 'cost-push innovation', latex: '\\varepsilon^u', stderr: 'sigma_u' },
    ],
    parameters: [
      ...p.parameters,
      {
        name: 'rho_u',
        label: 'persistence of cost-push shocks',
        latex: '\\rho_u',
        value: 0.5,
        expr: null,
        source: 'Illustrative',
      },
      {
        name: 'sigma_u',
        label: 'std. dev. of cost-push innovations',
        latex: '\\sigma_u',
        value: 0.002,
        expr: null,
        source: 'Illustrative',
      },
    ],
    equations: [
      ...p.equations.map((e) =>
        e.label === 'New Keynesian Phillips curve' ? { ...e, text: phillips, latex: null } : e,
      ),
      {
        label: 'Cost-push shock',
        text: 'u = rho_u*u(-1) + e_u',
        latex: 'u_t = \\rho_u u_{t-1} + \\varepsilon^u_t',
      },
    ],
    steadyState: [],
  };
}

const status = (token: string, id: string) => modelStatus(t.app, token, id);

describe('Model team with the scripted model', () => {
  it('adapts the theory, repairs a rejected model, and applies feedback that changes a parameter', async () => {
    llm.reset();
    llm.scriptPhase('model', 'theory', {
      json: {
        framework:
          '## Adapted framework\n\nCost-push shocks move inflation and the output gap in opposite directions.',
        assumptions: ['Firms face cost-push shocks'],
        mechanisms: ['A cost-push shock raises inflation for a given gap'],
        agents: ['Households', 'Firms', 'Central bank'],
        markets: ['Goods', 'Labour', 'Bonds'],
        references: [1, 2, 99],
      },
    });
    llm.script({
      agent: 'model',
      phase: 'model',
      replies: [
        // first proposal: a typo the parser catches
        { json: costPushProposal('pi = beta*pi(+1) + kapa*x + u') },
        // the repair
        { json: costPushProposal('pi = beta*pi(+1) + kappa*x + u') },
      ],
    });
    llm.scriptPhase('model', 'calibration', {
      json: {
        changes: [
          { name: 'theta', value: 0.8 },
          { name: 'kappa', value: 1 },
        ],
        note: 'Stickier prices: five quarters on average.',
      },
    });
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    const sessions = sessionClient(t.app, user.accessToken);
    const start = await api.post(`${BASE}/develop`, {
      modelType: 'NK',
      focus: 'Supply shocks and the inflation-output trade-off',
      periods: 120,
    });
    expect(start.status).toBe(201);
    const id = (start.body as { sessionId: string }).sessionId;

    await sessions.waitFor(id, waitingAt(1), 30_000);
    let s = await status(user.accessToken, id);
    expect(s.theoryFramework).toMatchObject({ source: 'model', adaptationMissing: null });
    expect(s.theoryFramework!.framework).toContain('Cost-push shocks');
    expect(s.theoryFramework!.references.map((r) => r.citation)).toEqual(
      canonicalModel('NK')
        .references.slice(0, 2)
        .map((r) => r.citation),
    );
    expect(s.logs.join('\n')).toMatch(/Dropped 1 reference number/);

    await api.post(`${BASE}/feedback`, { sessionId: id, feedback: 'Approved', checkpoint: 1 });
    await sessions.waitFor(id, waitingAt(2), 30_000);
    s = await status(user.accessToken, id);
    const m = s.mathematicalModel!;
    expect(m.source).toBe('model');
    expect(m.checks).toHaveLength(2);
    expect(m.checks[0]).toMatchObject({ proposal: 'model', ok: false, stage: 'parse' });
    expect(m.checks[0]!.message).toMatch(/unknown name 'kapa'/);
    expect(m.checks[1]).toMatchObject({ proposal: 'repair', ok: true, stage: 'solution' });
    expect(m.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'added', what: 'variable', name: 'u' }),
        expect.objectContaining({
          kind: 'changed',
          what: 'equation',
          name: 'New Keynesian Phillips curve',
        }),
      ]),
    );
    // the LaTeX of the changed equation was generated from its text
    expect(m.equations.find((e) => e.label === 'New Keynesian Phillips curve')!.latex).toBe(
      '\\pi_{t} = \\beta \\, \\pi_{t+1} + \\kappa \\, \\tilde{y}_{t} + u_{t}',
    );
    expect(m.modFile).toMatch(/var e_u; stderr sigma_u;/);
    // the repair request carried the engine's message back to the model
    const repairRequest = llm.requestsFor('model', 'model')[1]!;
    expect(JSON.stringify(repairRequest.messages)).toMatch(
      /The platform rejected this model: .*unknown name 'kapa'/,
    );

    await api.post(`${BASE}/feedback`, { sessionId: id, feedback: 'Approved', checkpoint: 2 });
    await sessions.waitFor(id, waitingAt(3), 60_000);
    s = await status(user.accessToken, id);
    expect(s.calibrationResults!.run.irfs.e_u!.pi![0]).toBeGreaterThan(0);
    expect(s.calibrationResults!.estimationNote).toMatch(/no target moments/);
    const kappaBefore = s.calibrationResults!.parameters.find((p) => p.name === 'kappa')!.value;

    // feedback in words: the model turns it into theta = 0.8 (the library's is 3/4); kappa (a
    // formula) is refused
    await api.post(`${BASE}/feedback`, {
      sessionId: id,
      feedback: 'Make prices stickier, about five quarters',
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
    s = await status(user.accessToken, id);
    const cal = s.calibrationResults!;
    expect(cal.parameters.find((p) => p.name === 'theta')).toMatchObject({
      value: 0.8,
      changedByFeedback: true,
    });
    const kappaAfter = cal.parameters.find((p) => p.name === 'kappa')!;
    expect(kappaAfter.changedByFeedback).toBe(false);
    expect(kappaAfter.value).toBeLessThan(kappaBefore); // computed again from theta
    expect(s.logs.join('\n')).toMatch(
      /Ignored values for names that are not settable parameters: kappa/,
    );

    await api.post(`${BASE}/feedback`, { sessionId: id, feedback: 'Approved', checkpoint: 3 });
    await sessions.waitFor(id, (x) => x.status === 'completed', 30_000);
    const md = (await api.get(`${BASE}/export/${id}`)).body as ModelExportReply;
    expect(md.format).toBe('markdown');
    expect(md.content).toContain('Adapted to the focus by the language model');
    expect(md.content).toContain('Cost-push shock');
  }, 180_000);

  it('keeps the canonical model when the proposals never pass the checks, and shows every check', async () => {
    llm.reset();
    llm.scriptPhase('model', 'theory', {
      json: {
        framework: 'Adapted.',
        assumptions: [],
        mechanisms: [],
        agents: [],
        markets: [],
        references: [1],
      },
    });
    // a passive policy rule: the engine's Blanchard-Kahn check fails every time
    const passive = asProposal(canonicalModel('NK'));
    const bad: Proposal = {
      explanation: 'A passive rule.',
      ...passive,
      parameters: passive.parameters.map((p) => (p.name === 'phi_pi' ? { ...p, value: 0.5 } : p)),
    };
    llm.scriptPhase('model', 'model', { json: bad });
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    const sessions = sessionClient(t.app, user.accessToken);
    const id = (
      (await api.post(`${BASE}/develop`, { modelType: 'NK', focus: 'Passive monetary policy' }))
        .body as { sessionId: string }
    ).sessionId;
    await sessions.waitFor(id, waitingAt(1), 30_000);
    await api.post(`${BASE}/feedback`, { sessionId: id, feedback: 'Approved', checkpoint: 1 });
    await sessions.waitFor(id, waitingAt(2), 30_000);
    const s = await status(user.accessToken, id);
    const m = s.mathematicalModel!;
    expect(m.source).toBe('library');
    expect(m.checks.map((c) => [c.proposal, c.ok, c.stage])).toEqual([
      ['model', false, 'blanchard_kahn'],
      ['repair', false, 'blanchard_kahn'],
      ['repair', false, 'blanchard_kahn'],
      ['repair', false, 'blanchard_kahn'],
      ['library', true, 'solution'],
    ]);
    expect(m.checks[0]!.message).toMatch(
      /1 eigenvalue larger than 1 in modulus for 2 forward-looking variables/,
    );
    expect(llm.requestsFor('model', 'model')).toHaveLength(4);
    expect(s.logs.join('\n')).toMatch(/still failed after 3 repairs/);
    expect(m.description.parameters.find((p) => p.name === 'phi_pi')!.value).toBe(1.5);
  }, 120_000);
});

describe('Model team: feedback at checkpoint 2', () => {
  it('revises the equations with the model and checks the revision again', async () => {
    llm.reset();
    llm.scriptPhase('model', 'theory', {
      json: {
        framework: 'Adapted.',
        assumptions: [],
        mechanisms: [],
        agents: [],
        markets: [],
        references: [1],
      },
    });
    const canonical = asProposal(canonicalModel('NK'));
    llm.scriptPhase('model', 'model', {
      json: { explanation: 'Canonical equations kept.', ...canonical },
    });
    const smoothing: Proposal = {
      explanation: 'Adds interest-rate smoothing to the rule.',
      ...canonical,
      parameters: [
        ...canonical.parameters,
        {
          name: 'rho_i',
          label: 'interest-rate smoothing',
          latex: '\\rho_i',
          value: 0.8,
          expr: null,
          source: 'Clarida, Galí and Gertler (1999)',
        },
      ],
      equations: canonical.equations.map((e) =>
        e.label === 'Taylor rule'
          ? { ...e, text: 'i = rho_i*i(-1) + (1 - rho_i)*(phi_pi*pi + phi_y*x) + v', latex: null }
          : e,
      ),
    };
    llm.script({
      agent: 'model',
      phase: 'model',
      match: /interest-rate smoothing/,
      replies: [{ json: smoothing }],
    });
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    const sessions = sessionClient(t.app, user.accessToken);
    const id = (
      (await api.post(`${BASE}/develop`, { modelType: 'NK', focus: 'Gradual policy' })).body as {
        sessionId: string;
      }
    ).sessionId;
    await sessions.waitFor(id, waitingAt(1), 30_000);
    await api.post(`${BASE}/feedback`, { sessionId: id, feedback: 'Approved', checkpoint: 1 });
    await sessions.waitFor(id, waitingAt(2), 30_000);
    expect((await status(user.accessToken, id)).mathematicalModel!.changes).toEqual([]);
    await api.post(`${BASE}/feedback`, {
      sessionId: id,
      feedback: 'Add interest-rate smoothing to the Taylor rule',
      checkpoint: 2,
    });
    await sessions.waitFor(
      id,
      (x) =>
        waitingAt(2)(x) &&
        x.results.some(
          (r) => r.key === 'model' && (r.result as { feedback?: string | null }).feedback !== null,
        ),
      30_000,
    );
    const m = (await status(user.accessToken, id)).mathematicalModel!;
    expect(m.feedback).toBe('Add interest-rate smoothing to the Taylor rule');
    expect(m.checks).toEqual([expect.objectContaining({ proposal: 'model', ok: true })]);
    expect(m.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'added', what: 'parameter', name: 'rho_i' }),
        expect.objectContaining({ kind: 'changed', what: 'equation', name: 'Taylor rule' }),
      ]),
    );
    expect(m.modFile).toContain('i = rho_i*i(-1) + (1 - rho_i)*(phi_pi*pi + phi_y*x) + v;');
    // the revision request showed the model its previous equations and the feedback
    const revision = llm.requestsFor('model', 'model').at(-1)!;
    expect(JSON.stringify(revision.messages)).toMatch(
      /The researcher's feedback on the model: Add interest-rate smoothing/,
    );
  }, 90_000);
});

describe('Model team: bad requests', () => {
  it('refuses an unknown type, a blank focus, periods out of range; unparsable periods become 240', async () => {
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    const unknown = await api.post(`${BASE}/develop`, { modelType: 'Keynesian cross', focus: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ success: false });
    expect((unknown.body as { error: string }).error).toMatch(
      /modelType must be one of: DSGE, RBC, NK/,
    );
    for (const focus of ['', '   ', undefined]) {
      const blank = await api.post(`${BASE}/develop`, { modelType: 'RBC', focus });
      expect(blank.status).toBe(400);
      expect((blank.body as { error: string }).error).toMatch(
        /Please enter a topical focus for the model/,
      );
    }
    const few = await api.post(`${BASE}/develop`, { modelType: 'RBC', focus: 'x', periods: 5 });
    expect(few.status).toBe(400);
    expect((few.body as { error: string }).error).toMatch(
      /Simulation periods must be a whole number from 20 to 10000 \(got 5\)/,
    );
    const many = await api.post(`${BASE}/develop`, {
      modelType: 'RBC',
      focus: 'x',
      periods: '99999',
    });
    expect(many.status).toBe(400);
    llm.reset();
    llm.scriptPhase('model', 'theory', {
      json: {
        framework: 'x',
        assumptions: [],
        mechanisms: [],
        agents: [],
        markets: [],
        references: [],
      },
    });
    const text = await api.post(`${BASE}/develop`, {
      modelType: 'RBC',
      focus: 'x',
      periods: 'twelve',
    });
    expect(text.status).toBe(201);
    const id = (text.body as { sessionId: string }).sessionId;
    expect((await status(user.accessToken, id)).periods).toBe(240);

    // feedback at the wrong checkpoint, bad export format, exporting a model that is not there yet
    await sessionClient(t.app, user.accessToken).waitFor(id, waitingAt(1), 30_000);
    const wrong = await api.post(`${BASE}/feedback`, {
      sessionId: id,
      feedback: 'Approved',
      checkpoint: 2,
    });
    expect(wrong.status).toBe(409);
    expect((wrong.body as { message: string }).message).toMatch(/waits at checkpoint 1, not 2/);
    expect((await api.get(`${BASE}/export/${id}?format=pdf`)).status).toBe(400);
    const early = await api.get(`${BASE}/export/${id}?format=mod`);
    expect(early.status).toBe(409);
    expect((early.body as { message: string }).message).toMatch(/no model to export yet/);
    expect((await api.post(`${BASE}/feedback`, { sessionId: id, feedback: '  ' })).status).toBe(
      400,
    );

    // another user's session is not found; so is a malformed or unknown id
    const other = await createUser(t.app);
    for (const path of [`/status/${id}`, `/logs/${id}`, `/export/${id}`]) {
      expect((await client(t.app, other.accessToken).get(`${BASE}${path}`)).status).toBe(404);
    }
    expect((await api.get(`${BASE}/status/not-an-id`)).status).toBe(404);
    expect((await api.get(`${BASE}/status/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    const anon = await t.app.inject({
      method: 'POST',
      url: `${BASE}/develop`,
      payload: { modelType: 'RBC', focus: 'x' },
    });
    expect(anon.statusCode).toBe(401);
    const logs = await api.get(`${BASE}/logs/${id}`);
    expect(logs.status).toBe(200);
    expect((logs.body as { logs: string[] }).logs.join('\n')).toMatch(
      /Loaded the library's RBC model/,
    );
  }, 60_000);
});
