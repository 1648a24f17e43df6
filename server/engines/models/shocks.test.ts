import { describe, expect, it } from 'vitest';
import type { ModelDescriptionInput } from '../../../common/teams/model';
import { compileModel, parameterVector } from './compile';
import { ModelError } from './errors';
import { runModel } from './run';
import { irfImpulses, lowerCholesky, shockCovariance } from './shocks';
import { MomentSource, solveModel } from './solve';

/** Two AR(1) processes and their sum, with correlated innovations. */
function twoShocks(
  correlations: ModelDescriptionInput['shockCorrelations'],
): ModelDescriptionInput {
  return {
    type: 'DSGE',
    title: 'two correlated AR(1) processes',
    summary: '',
    framework: '',
    references: [],
    endogenous: [
      { name: 'a', label: 'a' },
      { name: 'b', label: 'b' },
      { name: 's', label: 'a + b' },
    ],
    exogenous: [
      { name: 'ea', label: 'ea', stderr: 'sa' },
      { name: 'eb', label: 'eb', stderr: 'sb' },
    ],
    shockCorrelations: correlations,
    parameters: [
      { name: 'sa', label: 'sa', value: 0.01, source: 'test' },
      { name: 'sb', label: 'sb', value: 0.02, source: 'test' },
      { name: 'r', label: 'correlation', value: 0.6, source: 'test' },
      { name: 'rho', label: 'persistence', value: 0.8, source: 'test' },
    ],
    equations: [
      { label: 'a', text: 'a = rho*a(-1) + ea' },
      { label: 'b', text: 'b = rho*b(-1) + eb' },
      { label: 's', text: 's = a + b' },
    ],
    calibrationSource: 'test',
  };
}

describe('correlated shocks', () => {
  it('builds Sigma_e from corr (times both standard deviations) or cov (as given)', () => {
    const corr = compileModel(twoShocks([{ shocks: ['ea', 'eb'], kind: 'corr', value: 'r' }]));
    const omega = shockCovariance(corr, parameterVector(corr));
    expect(omega.map((row) => Array.from(row))).toEqual([
      [0.01 ** 2, 0.6 * 0.01 * 0.02],
      [0.6 * 0.01 * 0.02, 0.02 ** 2],
    ]);
    // a correlation follows the standard deviations; a covariance does not
    expect(shockCovariance(corr, parameterVector(corr, { sb: 0.04 }))[0]![1]).toBeCloseTo(
      0.6 * 0.01 * 0.04,
      18,
    );
    const cov = compileModel(twoShocks([{ shocks: ['eb', 'ea'], kind: 'cov', value: 0.00012 }]));
    expect(shockCovariance(cov, parameterVector(cov, { sb: 0.04 }))[1]![0]).toBe(0.00012);
  });

  it("gives Dynare's orthogonalised impulse responses: lower Cholesky, in declaration order", () => {
    const run = runModel(twoShocks([{ shocks: ['ea', 'eb'], kind: 'corr', value: 'r' }]));
    // ea moves eb by its regression on ea: impact (0.01, 0.6 * 0.02)
    expect(run.irfs.ea!.a![0]).toBeCloseTo(0.01, 15);
    expect(run.irfs.ea!.b![0]).toBeCloseTo(0.6 * 0.02, 15);
    expect(run.irfs.ea!.b![3]).toBeCloseTo(0.6 * 0.02 * 0.8 ** 3, 15);
    // eb's impulse is what is left of it: 0.02 sqrt(1 - 0.6^2), and a does not move
    expect(run.irfs.eb!.a![0]).toBe(0);
    expect(run.irfs.eb!.b![0]).toBeCloseTo(0.02 * Math.sqrt(1 - 0.36), 15);
  });

  it('uses the full covariance in theoretical and HP-filtered moments and in the simulation', () => {
    const model = twoShocks([{ shocks: ['ea', 'eb'], kind: 'corr', value: 'r' }]);
    const run = runModel(model, { periods: 10_000, seed: 3 });
    const m = run.theoreticalMoments!;
    const scale = 1 / (1 - 0.64);
    expect(m.variance[0]![1]).toBeCloseTo(0.6 * 0.01 * 0.02 * scale, 15);
    expect(m.variance[2]![2]).toBeCloseTo(
      (0.01 ** 2 + 0.02 ** 2 + 2 * 0.6 * 0.01 * 0.02) * scale,
      15,
    );
    expect(m.correlation[0]![1]).toBeCloseTo(0.6, 12);
    // the simulated correlation approaches 0.6 (it is 0 without the covariance)
    expect(Math.abs(run.simulatedMoments.correlation[0]![1]! - 0.6)).toBeLessThan(0.05);
    // HP-filtered moments keep the correlation of two processes with the same dynamics
    const source = new MomentSource(solveModel(compileModel(model)));
    expect(source.filtered().correlation[0]![1]).toBeCloseTo(0.6, 10);
  });

  it('refuses impossible covariances', () => {
    const tooLarge = compileModel(twoShocks([{ shocks: ['ea', 'eb'], kind: 'cov', value: 0.001 }]));
    expect(() => runModel(tooLarge)).toThrow(/not positive semi-definite/);
    const negative = compileModel(twoShocks([]));
    expect(() => runModel(negative, { overrides: { sa: -1 } })).toThrow(
      "The standard deviation of shock 'ea' must be zero or positive (got -1)",
    );
    expect(() =>
      compileModel(twoShocks([{ shocks: ['ea', 'ea'], kind: 'corr', value: 0.1 }])),
    ).toThrow(/pairs a shock with itself/);
    expect(() =>
      compileModel(
        twoShocks([
          { shocks: ['ea', 'eb'], kind: 'corr', value: 0.1 },
          { shocks: ['eb', 'ea'], kind: 'cov', value: 0.1 },
        ]),
      ),
    ).toThrow(/given twice/);
    expect(() =>
      compileModel(twoShocks([{ shocks: ['ea', 'eb'], kind: 'corr', value: 'a + 1' }])),
    ).toThrow(ModelError);
  });

  it('factors semi-definite matrices and leaves out the impulse of a shock without variance', () => {
    const L = lowerCholesky([Float64Array.of(0, 0), Float64Array.of(0, 4)])!;
    expect(L.map((r) => Array.from(r))).toEqual([
      [0, 0],
      [0, 2],
    ]);
    expect(lowerCholesky([Float64Array.of(0, 1), Float64Array.of(1, 4)])).toBeNull();
    expect(lowerCholesky([Float64Array.of(1, 2), Float64Array.of(2, 1)])).toBeNull();
    const impulses = irfImpulses([Float64Array.of(0, 0), Float64Array.of(0, 4)]);
    expect(impulses[0]).toBeNull();
    expect(Array.from(impulses[1]!)).toEqual([0, 2]);
  });
});

/** A random walk p, its growth d and a stationary AR(1) g. */
function withUnitRoot(rho: number): ModelDescriptionInput {
  return {
    type: 'DSGE',
    title: 'unit root',
    summary: '',
    framework: '',
    references: [],
    endogenous: [
      { name: 'p', label: 'level' },
      { name: 'd', label: 'growth' },
      { name: 'g', label: 'stationary' },
    ],
    exogenous: [
      { name: 'e', label: 'e', stderr: 'se' },
      { name: 'u', label: 'u', stderr: 'su' },
    ],
    parameters: [
      { name: 'se', label: 'se', value: 0.01, source: 'test' },
      { name: 'su', label: 'su', value: 0.02, source: 'test' },
      { name: 'rho', label: 'rho', value: rho, source: 'test' },
    ],
    equations: [
      { label: 'level', text: 'p = rho*p(-1) + e + 0.5*g' },
      { label: 'growth', text: 'd = p - p(-1)' },
      { label: 'ar', text: 'g = 0.5*g(-1) + u' },
    ],
    calibrationSource: 'test',
  };
}

describe('unit roots', () => {
  it.each([1, 1 - 1e-7])(
    'root %s: the level has no theoretical moments, growth and the AR(1) have theirs',
    (rho) => {
      const run = runModel(withUnitRoot(rho), { periods: 200 });
      const m = run.theoreticalMoments!;
      // with a root just below 1, growth loads on it by 1 - rho = 1e-7, above Dynare's
      // tolerance 1e-11, so Dynare (and the engine) count it as non-stationary too
      expect(run.unitRoot!.nonStationary).toEqual(rho === 1 ? ['p'] : ['p', 'd']);
      expect(run.unitRoot!.note).toMatch(
        rho === 1 ? /^The model has a unit root: 'p' is not stationary/ : /'p', 'd' are not/,
      );
      expect([m.mean[0], m.std[0], m.autocorr[0]![0], m.correlation[0]![2]]).toEqual([
        null,
        null,
        null,
        null,
      ]);
      expect(m.variance[0]).toEqual([null, null, null]);
      expect(m.variance[2]![0]).toBeNull();
      // g: variance su^2 / (1 - 0.25); d = e + 0.5 g (with rho = 1)
      expect(m.std[2]).toBeCloseTo(0.02 / Math.sqrt(0.75), 12);
      if (rho === 1) {
        expect(m.variance[1]![1]).toBeCloseTo(0.01 ** 2 + (0.25 * 0.02 ** 2) / 0.75, 14);
        expect(m.mean[1]).toBe(0);
      }
      // simulated moments are always numbers
      run.simulatedMoments.std.forEach((s) => expect(Number.isFinite(s)).toBe(true));
    },
  );

  it('a stationary model has no unit-root note, and a root just below the tolerance counts as stationary', () => {
    expect(runModel(withUnitRoot(0.99)).unitRoot).toBeNull();
    expect(runModel(withUnitRoot(1 - 2e-6)).unitRoot).toBeNull();
  });

  it('targets of a non-stationary variable: undefined unfiltered, defined after the HP filter', () => {
    const source = new MomentSource(solveModel(compileModel(withUnitRoot(1))));
    const target = { variable: 'p', value: 0, source: 'test' };
    expect(source.value({ ...target, statistic: 'std', filter: 'none' })).toBeNull();
    expect(source.value({ ...target, statistic: 'mean', filter: 'none' })).toBeNull();
    expect(source.value({ ...target, statistic: 'std', filter: 'hp' })).toBeGreaterThan(0);
    expect(
      source.value({ variable: 'g', statistic: 'std', filter: 'none', value: 0, source: '' }),
    ).toBeCloseTo(0.02 / Math.sqrt(0.75), 12);
  });
});
