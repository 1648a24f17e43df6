import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ModelRun } from '../../../common/teams/model';
import { compileModel, parameterVector } from './compile';
import { toModFile } from './dynare';
import {
  dumpCall,
  dynareMissingReason,
  runDynare,
  runDynareModText,
  type DynareResults,
} from './dynare-runner';
import { ModelError } from './errors';
import { canonicalModel, LIBRARY_TYPES } from './library';
import { importModFile } from './mod-import';
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

  it("writes the session's values, their sources and the shock correlations", () => {
    const model = compileModel(canonicalModel('RBC'));
    const mod = toModFile(model, {
      overrides: { sigma_a: 0.0114, rho: 0.987, beta: 0.985 },
      parameterSources: { rho: 'estimated by moment matching', beta: 'set by the researcher' },
    });
    expect(mod).toMatch(/^rho = 0\.987; \/\/ estimated by moment matching$/m);
    expect(mod).toMatch(/^beta = 0\.985; \/\/ set by the researcher$/m);
    expect(mod).toMatch(
      /^sigma_a = 0\.0114; \/\/ set for this session \(the description has 0\.007: Solow-residual/m,
    );
    // derived parameters stay formulas, so Dynare recomputes them from the new values
    expect(mod).toMatch(/^rk = 1\/beta - 1 \+ delta; /m);

    const nk = compileModel(canonicalModel('NK'));
    const correlated = toModFile(nk, {
      shockCorrelations: [{ shocks: ['e_v', 'e_a'], kind: 'corr', value: 0.3 }],
    });
    expect(correlated).toMatch(
      /shocks;\n {2}var e_v; stderr sigma_v;\n {2}var e_a; stderr sigma_a;\n {2}corr e_v, e_a = 0\.3;\nend;/,
    );
    const covariance = toModFile(
      compileModel({
        ...canonicalModel('NK'),
        shockCorrelations: [
          { shocks: ['e_a', 'e_v'], kind: 'cov', value: '0.5 * sigma_v*sigma_a' },
        ],
      }),
    );
    expect(covariance).toMatch(/^ {2}var e_a, e_v = 0\.5\*sigma_v\*sigma_a;$/m);
  });

  it('refuses a covariance that is not positive semi-definite, a correlation above 1 and unknown shocks', () => {
    const nk = compileModel(canonicalModel('NK'));
    expect(() =>
      toModFile(nk, { shockCorrelations: [{ shocks: ['e_v', 'e_a'], kind: 'corr', value: 1.5 }] }),
    ).toThrow(/correlation of shocks e_v and e_a must lie between -1 and 1 \(got 1\.5\)/);
    expect(() =>
      toModFile(nk, { shockCorrelations: [{ shocks: ['e_v', 'e_a'], kind: 'cov', value: 0.01 }] }),
    ).toThrow(/not positive semi-definite/);
    expect(() =>
      toModFile(nk, { shockCorrelations: [{ shocks: ['e_v', 'e_x'], kind: 'corr', value: 0.1 }] }),
    ).toThrow(ModelError);
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
const TOLERANCE = 1e-8;

/** Equal to 1e-8: absolute, relative for values above 1. */
function close(ours: number, theirs: number): boolean {
  return Math.abs(ours - theirs) <= TOLERANCE * Math.max(1, Math.abs(theirs));
}

/**
 * Our steady state, impulse responses, theoretical variances and first autocorrelations
 * against Dynare's. A variable with a unit root has no moments in either (null here, NaN in
 * Dynare); Dynare keeps only impulse responses above 1e-10 (an absent one must be zero here).
 */
function expectEqualToDynare(ours: ModelRun, dynare: DynareResults): void {
  const names = Object.keys(ours.steadyState);
  for (const v of names) expect(close(ours.steadyState[v]!, dynare.steadyState[v]!)).toBe(true);
  let compared = 0;
  for (const [shock, byVariable] of Object.entries(ours.irfs)) {
    for (const [v, path] of Object.entries(byVariable)) {
      const theirs = dynare.irfs[shock]?.[v] ?? path.map(() => 0);
      expect(theirs).toHaveLength(path.length);
      const worst = Math.max(...path.map((x, t) => Math.abs(x - theirs[t]!)));
      expect(worst, `${v} after ${shock}`).toBeLessThan(TOLERANCE);
      compared++;
    }
  }
  expect(compared).toBe(names.length * Object.keys(ours.irfs).length);
  const moments = ours.theoreticalMoments!;
  expect(dynare.variance).toHaveLength(names.length);
  moments.variance.forEach((row, i) =>
    row.forEach((x, j) => {
      const theirs = dynare.variance[i]![j]!;
      if (x === null) expect(theirs, `${names[i]}, ${names[j]}`).toBeNaN();
      else expect(close(x, theirs), `variance of ${names[i]}, ${names[j]}`).toBe(true);
    }),
  );
  moments.autocorr[0]!.forEach((a, i) => {
    const d = dynare.autocorr1[i] ?? null;
    if (a === null || d === null) {
      // undefined in both (unit root), or a variable with (almost) no variance
      const variance = moments.variance[i]![i] ?? null;
      if (variance === null) expect(d).toBeNull();
      else expect(Math.abs(variance)).toBeLessThan(1e-12);
    } else expect(close(a, d), `autocorrelation of ${names[i]}`).toBe(true);
  });
}

/** The .mod text up to its stoch_simul, which is replaced by ours (order 1) and the dump call. */
function upToStochSimul(text: string, line: number): string {
  const before = text
    .split('\n')
    .slice(0, line - 1)
    .join('\n');
  return `${before}\nstoch_simul(order=1, irf=40, periods=0, nograph);\nverbatim;\n${dumpCall()}\nend;\n`;
}

const testdata = (name: string): string =>
  readFileSync(path.join(import.meta.dirname, 'testdata', name), 'utf8');

describe.skipIf(missing !== null)(
  missing
    ? `comparison with Dynare (skipped: ${missing}; CI installs octave and dynare)`
    : 'comparison with Dynare',
  () => {
    it.each(LIBRARY_TYPES)(
      '%s: steady state, impulse responses and theoretical moments equal Dynare to 1e-8',
      async (type) => {
        const model = compileModel(canonicalModel(type));
        expectEqualToDynare(runModel(model), await runDynare(model, { repeats: 0 }));
      },
      120_000,
    );

    it("Dynare's example1.mod as shipped (correlated shocks) gives Dynare's results at order 1", async () => {
      // The file leaves the order unset, so Dynare would use order 2; only its stoch_simul
      // statement is replaced, by one at order 1 (what the engine computes).
      const text = testdata('example1.mod');
      const imported = importModFile(text, { fileName: 'example1.mod' });
      const ours = runModel(imported.description, imported.runOptions);
      const dynare = await runDynareModText(
        'example1',
        upToStochSimul(text, imported.stochSimul!.line),
        6,
      );
      expect(dynare.shockCovariance).toEqual([
        [0.009 ** 2, 0.1 * 0.009 * 0.009],
        [0.1 * 0.009 * 0.009, 0.009 ** 2],
      ]);
      expectEqualToDynare(ours, dynare);
      // orthogonalised impulses in declaration order: e moves u (through b), u does not move e
      expect(ours.irfs.e!.b![0]).toBeCloseTo(0.1 * 0.009, 15);
      expect(ours.irfs.u!.a![0]).toBe(0);
    }, 120_000);

    it("Dynare's Gali_2015.mod up to its stoch_simul: equal to Dynare, no moments for the price level and the wage", async () => {
      const text = testdata('Gali_2015.mod');
      const imported = importModFile(text, { fileName: 'Gali_2015.mod' });
      const ours = runModel(imported.description);
      const dynare = await runDynareModText(
        'Gali_2015',
        upToStochSimul(text, imported.stochSimul!.line),
        14,
      );
      expectEqualToDynare(ours, dynare);
      expect(ours.unitRoot?.nonStationary).toEqual(['p', 'w']);
      const p = imported.description.endogenous.findIndex((v) => v.name === 'p');
      expect(dynare.variance[p]![p]).toBeNaN();
    }, 120_000);

    it("an export with the session's parameter values and shock correlations reproduces the session in Dynare", async () => {
      // RBC after an estimation (the values of the session)
      const rbc = compileModel(canonicalModel('RBC'));
      const estimated = { sigma_a: 0.0114, rho: 0.987 };
      expectEqualToDynare(
        runModel(rbc, { overrides: estimated }),
        await runDynare(rbc, { overrides: estimated, repeats: 0 }),
      );
      // the imported example1 with other values and another covariance (a formula this time)
      const example = importModFile(testdata('example1.mod')).description;
      const shockCorrelations = [
        { shocks: ['e', 'u'] as [string, string], kind: 'corr' as const, value: '-0.5*tau/0.025' },
      ];
      const overrides = { rho: 0.9, stderr_u: 0.012, alpha: 0.33 };
      const compiled = compileModel({ ...example, shockCorrelations });
      const dynare = await runDynare(compileModel(example), {
        overrides,
        shockCorrelations,
        repeats: 0,
      });
      expect(dynare.modFile).toMatch(/^ {2}corr e, u = \(-0\.5\)\*tau\/0\.025;$/m);
      expect(dynare.shockCovariance[0]![1]).toBeCloseTo(-0.5 * 0.009 * 0.012, 15);
      expectEqualToDynare(runModel(compiled, { overrides }), dynare);
    }, 240_000);

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
