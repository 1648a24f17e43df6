import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importModFile } from '../mod-import';
import { runModel } from '../run';
import { canonicalModel, LIBRARY_TYPES } from './index';

/**
 * One number per library model that its cited source documents, reproduced by the engine from
 * the library's calibration. Each test says where the source states the number.
 */

const run = (type: string) => runModel(canonicalModel(type), { periods: 100 });

const references: Record<string, () => void> = {
  DSGE: () => {
    // An and Schorfheide (2007), section 2 (measurement equations): the annualised interest
    // rate is INT = piA + rA + 4 gammaQ + 400 R; with Table 2's piA = 4, rA = 0.4 and
    // gammaQ = 0.5 its steady state is 6.4 percent.
    expect(run('DSGE').steadyState.INT).toBeCloseTo(4 + 0.4 + 4 * 0.5, 12);
  },
  RBC: () => {
    // Hansen (1985), section 4 (calibration): capital's share theta = 0.36, so labour's share
    // of income W N / Y is 0.64 in the steady state.
    const ss = run('RBC').steadyState;
    expect(Math.exp(ss.w! + ss.n! - ss.y!)).toBeCloseTo(0.64, 12);
  },
  NK: () => {
    // Galí (2015), chapter 3, as implemented in Dynare's own Gali_2015.mod (testdata/, the
    // second edition's parametrization of p. 67): the library's responses to a 25 basis point
    // monetary shock (output gap and inflation) and to a 1% technology shock are those of that
    // file's model, imported and solved by the engine.
    const text = readFileSync(path.join(import.meta.dirname, '../testdata/Gali_2015.mod'), 'utf8');
    const gali = importModFile(text).description;
    const value = (name: string): number => gali.parameters.find((p) => p.name === name)!.value!;
    const nk = canonicalModel('NK');
    const ours = (name: string): number => nk.parameters.find((p) => p.name === name)!.value!;
    expect([ours('phi'), ours('alpha'), ours('epsilon'), ours('theta')]).toEqual([
      value('varphi'),
      value('alppha'),
      value('epsilon'),
      value('theta'),
    ]);
    const theirs = runModel(gali, { overrides: { stderr_eps_a: 0.01 } });
    const mine = run('NK');
    for (let t = 0; t < 40; t++) {
      expect(mine.irfs.e_v!.x![t]).toBeCloseTo(theirs.irfs.eps_nu!.y_gap![t]!, 14);
      expect(mine.irfs.e_v!.pi![t]).toBeCloseTo(theirs.irfs.eps_nu!.pi![t]!, 14);
      expect(mine.irfs.e_a!.y![t]).toBeCloseTo(theirs.irfs.eps_a!.y![t]!, 14);
      expect(mine.irfs.e_a!.pi![t]).toBeCloseTo(theirs.irfs.eps_a!.pi![t]!, 14);
    }
  },
  OLG: () => {
    // Romer (2019), chapter 2, part B (the Diamond model with log utility and Cobb-Douglas
    // production): k_{t+1} = (1 - alpha) beta / ((1 + beta)(1 + n)) k_t^alpha, whose slope at
    // the steady state is alpha = 1/3; the engine's first-order decision rule has it.
    const r = run('OLG');
    const k = Object.keys(r.steadyState).indexOf('k');
    expect(r.policy.G[k]![r.policy.states.indexOf('k')]).toBeCloseTo(1 / 3, 12);
  },
  IO: () => {
    // Tirole (1988), chapter 5 (Cournot): each firm's Lerner index equals its market share
    // over the price elasticity of demand, L = (1/N) / epsilon.
    const ss = run('IO').steadyState;
    const elasticity = ss.p! / (1 * ss.Q!);
    expect(ss.lerner).toBeCloseTo(1 / 4 / elasticity, 12);
  },
  Trade: () => {
    // Arkolakis, Costinot and Rodríguez-Clare (2012), section I: the welfare change equals the
    // change in the domestic expenditure share to the power 1/epsilon, epsilon = 1 - sigma the
    // trade elasticity (here for trade costs falling from 1.74 to 1.5).
    const cs = run('Trade').comparativeStatics!;
    const lam = cs.find((c) => c.variable === 'lamH')!;
    const W = cs.find((c) => c.variable === 'WH')!;
    expect(W.scenario / W.baseline).toBeCloseTo((lam.scenario / lam.baseline) ** (1 / (1 - 5)), 12);
  },
  Urban: () => {
    // Davis and Ortalo-Magné (2011): households spend about 0.24 of income on housing; in the
    // model, rent times land per household at the centre (r0 / density) is 0.24 of income.
    const ss = run('Urban').steadyState;
    expect(ss.r0! / ss.dens0! / ss.inc!).toBeCloseTo(0.24, 12);
  },
  Labor: () => {
    // Shimer (2005), Table 2: separation rate s = 0.10 and job-finding rate f = 1.355 per
    // quarter (Poisson rates), so steady-state unemployment s / (s + f) is 6.9%.
    expect(Math.exp(run('Labor').steadyState.lu!)).toBeCloseTo(0.1 / (0.1 + 1.355), 12);
    expect(Math.exp(run('Labor').steadyState.lu!)).toBeCloseTo(0.069, 3);
  },
  Finance: () => {
    // Mehra and Prescott (1985), Table 1: US per-capita consumption growth 1889-1978 has mean
    // 1.83%, standard deviation 3.57% and first-order autocorrelation -0.14; the engine's
    // theoretical moments of g reproduce them.
    const m = run('Finance').theoreticalMoments!;
    const g = m.variables.indexOf('g');
    expect(m.mean[g]).toBeCloseTo(0.0183, 12);
    expect(m.std[g]).toBeCloseTo(0.0357, 4);
    expect(m.autocorr[0]![g]).toBeCloseTo(-0.14, 12);
  },
  Environmental: () => {
    // Nordhaus (2017), DICE-2016R: a pure rate of time preference of 1.5% a year; without
    // growth the steady-state net return on capital equals it (1/beta - 1 = 1.52%).
    const ss = run('Environmental').steadyState;
    expect((0.3 * ss.Q!) / ss.k! - 0.1).toBeCloseTo(0.015, 3);
  },
};

describe('each library model reproduces a number its source documents', () => {
  it('covers every library model', () => {
    expect(Object.keys(references).sort()).toEqual([...LIBRARY_TYPES].sort());
  });
  it.each(LIBRARY_TYPES)('%s', (type) => references[type]!());
});
