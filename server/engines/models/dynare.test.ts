import { describe, expect, it } from 'vitest';
import { compileModel, parameterVector } from './compile';
import { toModFile } from './dynare';
import { dynareMissingReason, runDynare } from './dynare-runner';
import { canonicalModel, LIBRARY_TYPES } from './library';
import { runModel } from './run';
import { compareResults, createModelEngine } from './service';
import { pointVector, residuals } from './steady';

describe('Dynare .mod export', () => {
  it.each(LIBRARY_TYPES)('%s: the model block says what our solver solves', (type) => {
    const model = compileModel(canonicalModel(type));
    const mod = toModFile(model);
    expect(mod).toMatch(/^var\n/m);
    for (const v of model.endo) expect(mod).toMatch(new RegExp(`^  ${v} \\(long_name=`, 'm'));
    expect(mod).toMatch(/stoch_simul\(order=1, irf=40, periods=0, nograph\);/);
    // each equation in the model block parses back to a function equal to ours
    const block = mod.slice(mod.indexOf('model;') + 7, mod.indexOf('end;', mod.indexOf('model;')));
    const lines = block
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('['))
      .map((l) => l.replace(/;$/, ''));
    expect(lines).toHaveLength(model.equations.length);
    const run = runModel(model, { periods: 20 });
    // evaluate away from the steady state so that no term vanishes
    const ys = Float64Array.from(
      model.endo,
      (v, i) => (run.steadyState[v] as number) * 1.01 + 0.001 * (i + 1),
    );
    const values = pointVector(
      model,
      ys,
      parameterVector(model),
      Float64Array.from(model.exo, () => 0.01),
    );
    const ours = residuals(model, values);
    const reparsed = compileModel({
      ...model.description,
      equations: lines.map((text, i) => ({ label: `e${i}`, text })),
    });
    const theirs = residuals(reparsed, values);
    ours.forEach((r, i) => expect(theirs[i]).toBeCloseTo(r, 10));
  });

  it('exports the scenario as a perfect-foresight simulation', () => {
    const mod = toModFile(compileModel(canonicalModel('Environmental')), {
      kind: 'perfect_foresight',
      periods: 100,
    });
    expect(mod).toMatch(/tau = 0.018;\nendval;/);
    expect(mod).toMatch(/perfect_foresight_setup\(periods=100\);\nperfect_foresight_solver;/);
    const olg = toModFile(compileModel(canonicalModel('OLG')), { kind: 'perfect_foresight' });
    expect(olg).toMatch(/histval;\n {2}k\(0\) = /);
  });

  it('keeps user text out of the file except as comments and quoted labels', () => {
    const m = canonicalModel('NK');
    m.title = "Evil'); system('rm -rf /'); %\nnext";
    m.endogenous[0]!.label = "gap')\nsystem('ls')";
    const mod = toModFile(compileModel(m));
    expect(mod).not.toMatch(/system\('/);
    expect(mod.split('\n')[0]).toBe('// Evil); system(rm -rf /); %next');
  });
});

const missing = dynareMissingReason();

describe.skipIf(missing !== null)(
  missing
    ? `comparison with Dynare (skipped: ${missing}; CI installs octave and dynare)`
    : 'comparison with Dynare',
  () => {
    it.each(['RBC', 'NK'])(
      '%s: impulse responses, steady state and theoretical moments equal Dynare to 1e-6',
      async (type) => {
        const model = compileModel(canonicalModel(type));
        const ours = runModel(model);
        const dynare = await runDynare(model, { repeats: 1 });
        for (const v of model.endo)
          expect(dynare.steadyState[v]).toBeCloseTo(ours.steadyState[v] as number, 9);
        let compared = 0;
        for (const shock of model.exo) {
          for (const v of model.endo) {
            const mine = ours.irfs[shock]![v]!;
            // Dynare keeps only responses above 1e-10; an absent one must be zero for us too
            const theirs = dynare.irfs[shock]?.[v] ?? mine.map(() => 0);
            expect(theirs).toHaveLength(40);
            mine.forEach((x, t) => expect(Math.abs(x - theirs[t]!)).toBeLessThan(1e-6));
            compared++;
          }
        }
        expect(compared).toBe(model.endo.length * model.exo.length);
        expect(Object.keys(dynare.irfs)).toEqual(model.exo);
        const variance = ours.theoreticalMoments!.variance;
        expect(dynare.variance).toHaveLength(model.endo.length);
        variance.forEach((row, i) =>
          row.forEach((x, j) => expect(Math.abs(x! - dynare.variance[i]![j]!)).toBeLessThan(1e-6)),
        );
        ours.theoreticalMoments!.autocorr[0]!.forEach((a, i) => {
          const d = dynare.autocorr1[i];
          if (a === null || d === null || d === undefined)
            expect(a === null || Math.abs(a) < 1e-6).toBe(true);
          else expect(Math.abs(a - d)).toBeLessThan(1e-6);
        });
        // the finite eigenvalues Dynare reports include ours
        const finite = ours.eigenvalues
          .filter((e) => e.modulus !== null)
          .map((e) => e.modulus as number);
        for (const m of finite.filter((x) => x > 1e-8)) {
          expect(dynare.eigenvalueModuli.some((d) => Math.abs(d - m) < 1e-8)).toBe(true);
        }
      },
      120_000,
    );

    it("reports a model Dynare rejects with Dynare's own output", async () => {
      const model = compileModel(canonicalModel('NK'));
      await expect(runDynare(model, { overrides: { phi_pi: 0.5 }, repeats: 1 })).rejects.toThrow(
        /Dynare failed on the exported model/,
      );
    }, 120_000);
  },
);

describe('the model engine service', () => {
  it('says why Dynare was not run when it is not installed', async () => {
    const model = compileModel(canonicalModel('NK'));
    const run = runModel(model, { periods: 20 });
    const result = await createModelEngine(null).compareWithDynare(model, run, {});
    expect(result).toMatchObject({ available: false, irfMaxDiff: null, irfs: null });
    expect(result.reason).toMatch(/^Dynare was not run: /);
  });

  it('compares results: absent Dynare responses count as zero, gaps are the largest absolute ones', () => {
    const model = compileModel(canonicalModel('NK'));
    const ours = runModel(model, { periods: 20 });
    const irfs: Record<string, Record<string, number[]>> = {};
    for (const [shock, byVariable] of Object.entries(ours.irfs)) {
      irfs[shock] = {};
      for (const [v, path] of Object.entries(byVariable))
        irfs[shock]![v] = path.map((x) => x + 1e-9);
    }
    delete irfs.e_v!.x; // as Dynare drops responses below 1e-10
    const variance = ours.theoreticalMoments!.variance.map((row) => row.map((x) => x!));
    variance[0]![0]! += 2e-7;
    const result = compareResults(ours, {
      steadyState: { ...ours.steadyState, x: 3e-8 },
      irfs,
      variance,
      autocorr1: [],
      shockCovariance: [],
      eigenvalueModuli: [],
      stochSimulSeconds: NaN,
      processSeconds: 1.5,
      modFile: '',
    });
    const largestX = Math.max(...ours.irfs.e_v!.x!.map(Math.abs));
    expect(result.irfMaxDiff).toBeCloseTo(Math.max(largestX, 1e-9), 15);
    expect(result.steadyStateMaxDiff).toBeCloseTo(3e-8, 20);
    expect(result.varianceMaxDiff).toBeCloseTo(2e-7, 20);
    expect(result.processSeconds).toBe(1.5);
  });
});
