import { describe, expect, it } from 'vitest';
import {
  parseSimulationPeriods,
  type ModelDescription,
  type ModelDescriptionInput,
} from '../../../common/teams/model';
import { compileModel, parameterVector } from './compile';
import { normalGenerator } from './dynamics';
import { ModelError } from './errors';
import { matchMoments } from './estimate';
import { canonicalModel, LIBRARY_TYPES } from './library';
import { hpCycle } from './moments';
import { runModel } from './run';
import { solveModel } from './solve';

function modelError(fn: () => unknown): ModelError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ModelError);
    return err as ModelError;
  }
  throw new Error('expected a ModelError');
}

/** The canonical model with some fields replaced. */
function variant(type: string, change: (m: ModelDescription) => void): ModelDescription {
  const m = canonicalModel(type);
  change(m);
  return m;
}

describe('closed forms', () => {
  it('RBC steady state: hours, capital-output and consumption-output ratios', () => {
    const run = runModel(canonicalModel('RBC'));
    const { alpha, beta, delta } = { alpha: 0.36, beta: 0.99, delta: 0.025 };
    const ky = alpha / (1 / beta - 1 + delta);
    const ss = run.steadyState;
    expect(Math.exp(ss.n!)).toBeCloseTo(1 / 3, 12);
    expect(Math.exp(ss.k! - ss.y!)).toBeCloseTo(ky, 12);
    expect(Math.exp(ss.c! - ss.y!)).toBeCloseTo(1 - delta * ky, 12);
    expect(Math.exp(ss.w!)).toBeCloseTo((1 - alpha) * Math.exp(ss.y! - ss.n!), 12);
    // productivity is an exogenous AR(1): impact sigma, decay rho, variance sigma^2/(1-rho^2)
    const a = run.irfs.e_a!.a!;
    expect(a[0]).toBeCloseTo(0.007, 14);
    expect(a[10]).toBeCloseTo(0.007 * 0.95 ** 10, 14);
    const ia = run.theoreticalMoments!.variables.indexOf('a');
    expect(run.theoreticalMoments!.variance[ia]![ia]).toBeCloseTo(0.007 ** 2 / (1 - 0.95 ** 2), 14);
    expect(run.theoreticalMoments!.autocorr[0]![ia]).toBeCloseTo(0.95, 12);
    expect(run.theoreticalMoments!.autocorr[2]![ia]).toBeCloseTo(0.95 ** 3, 12);
  });

  it('NK model: impulse responses equal the analytic solution (Galí 2015, ch. 3)', () => {
    const run = runModel(canonicalModel('NK'));
    const beta = 0.99;
    const sigma = 1;
    const phi = 5;
    const alpha = 1 / 4;
    const eps = 9;
    const theta = 3 / 4;
    const phiPi = 1.5;
    const phiY = 0.125;
    const lambda =
      (((1 - theta) * (1 - beta * theta)) / theta) * ((1 - alpha) / (1 - alpha + alpha * eps));
    const kappa = lambda * (sigma + (phi + alpha) / (1 - alpha));
    const psiYa = (1 + phi) / (sigma * (1 - alpha) + phi + alpha);
    const Lambda = (rho: number): number =>
      1 / ((1 - beta * rho) * (sigma * (1 - rho) + phiY) + kappa * (phiPi - rho));

    // monetary shock: x = -(1 - beta rho) Lambda v, pi = -kappa Lambda v (the rule's response
    // to output is a response to the gap here, since natural output does not move)
    const rv = 0.5;
    const sv = 0.0025;
    for (let h = 0; h < 40; h++) {
      const v = sv * rv ** h;
      expect(run.irfs.e_v!.x![h]).toBeCloseTo(-(1 - beta * rv) * Lambda(rv) * v, 14);
      expect(run.irfs.e_v!.pi![h]).toBeCloseTo(-kappa * Lambda(rv) * v, 14);
      expect(run.irfs.e_v!.r![h]).toBeCloseTo(
        sigma * (1 - rv) * (1 - beta * rv) * Lambda(rv) * v,
        14,
      );
    }
    // technology shock: the rule responds to output y = x + psi a, so the shock enters like a
    // policy shock of size psi (sigma (1 - rho) + phi_y) a:
    // x = -psi (sigma (1 - rho) + phi_y)(1 - beta rho) Lambda a, pi = -psi (...) kappa Lambda a
    const ra = 0.9;
    const sa = 0.01;
    for (let h = 0; h < 40; h++) {
      const a = sa * ra ** h;
      const size = psiYa * (sigma * (1 - ra) + phiY) * a;
      expect(run.irfs.e_a!.x![h]).toBeCloseTo(-(1 - beta * ra) * Lambda(ra) * size, 14);
      expect(run.irfs.e_a!.pi![h]).toBeCloseTo(-kappa * Lambda(ra) * size, 14);
      expect(run.irfs.e_a!.y![h]).toBeCloseTo(psiYa * a - (1 - beta * ra) * Lambda(ra) * size, 14);
    }
    expect(run.blanchardKahn).toMatchObject({
      satisfied: true,
      explosiveRoots: 2,
      forwardLooking: 2,
    });
  });

  it('OLG: the perfect-foresight transition follows the law of motion k_t = A k_{t-1}^alpha', () => {
    const run = runModel(canonicalModel('OLG'), { periods: 40 });
    const alpha = 1 / 3;
    const beta = 0.97 ** 30;
    const n = 1.01 ** 30 - 1;
    const A = ((1 - alpha) * beta) / ((1 + beta) * (1 + n));
    const k = run.transition!.paths.k!;
    const kStar = A ** (1 / (1 - alpha));
    expect(run.steadyState.k).toBeCloseTo(kStar, 14);
    expect(k[0]).toBeCloseTo(0.5 * kStar, 14);
    for (let t = 1; t <= 40; t++) expect(k[t]).toBeCloseTo(A * k[t - 1]! ** alpha, 12);
    expect(k[40]).toBeCloseTo(kStar, 10);
  });

  it('Cournot: equilibrium and merger comparative statics equal the textbook formulas', () => {
    const run = runModel(canonicalModel('IO'));
    const eq = (N: number) => ({ p: (100 + N * 40) / (N + 1), q: (100 - 40) / (N + 1) });
    expect(run.steadyState.p).toBeCloseTo(eq(4).p, 12);
    expect(run.steadyState.q).toBeCloseTo(eq(4).q, 12);
    const p = run.comparativeStatics!.find((c) => c.variable === 'p')!;
    expect(p.scenario).toBeCloseTo(eq(3).p, 12);
    // cost pass-through is N/(N+1): the impact response of p to a cost shock
    expect(run.irfs.e_m!.p![0]).toBeCloseTo((4 / 5) * 40 * 0.03, 10);
  });

  it('monocentric city: the city edge has its closed form', () => {
    const run = runModel(canonicalModel('Urban'));
    const edge = (t: number) => (1 / t) * (1 - (1 + (t * 150) / 1) ** -0.24);
    expect(run.steadyState.xbar).toBeCloseTo(edge(0.01), 12);
    expect(run.comparativeStatics!.find((c) => c.variable === 'xbar')!.scenario).toBeCloseTo(
      edge(0.008),
      12,
    );
  });

  it('Armington: welfare gains from lower trade costs follow the ACR formula', () => {
    const run = runModel(canonicalModel('Trade'));
    const lam = run.comparativeStatics!.find((c) => c.variable === 'lamH')!;
    const W = run.comparativeStatics!.find((c) => c.variable === 'WH')!;
    const sigma = 5;
    expect(W.scenario / W.baseline).toBeCloseTo(
      (lam.scenario / lam.baseline) ** (1 / (1 - sigma)),
      12,
    );
  });

  it('perfect foresight equals the first-order solution in a linear model', () => {
    // The NK model with a monetary shock process around a non-zero mean, started away from it.
    const m = canonicalModel('NK');
    m.parameters.push({ name: 'vbar', label: 'mean of v', value: 0.01, source: 'test' });
    m.equations = m.equations.map((eq) =>
      eq.label === 'Taylor rule'
        ? { ...eq, text: 'i = phi_pi*pi + phi_y*x + v - vbar' }
        : eq.label === 'Monetary policy shock'
          ? { ...eq, text: 'v = (1 - rho_v)*vbar + rho_v*v(-1) + e_v' }
          : eq,
    );
    m.steadyState = { v: 'vbar' };
    m.scenario = {
      title: 'v starts at twice its mean',
      description: '',
      changes: {},
      initialFactor: { v: 2 },
    };
    const run = runModel(m, { periods: 60 });
    const path = run.transition!.paths;
    // the decision rule: deviations at t = G * deviation of v at t-1
    const G = run.policy.G;
    const iv = run.policy.states.indexOf('v');
    const names = Object.keys(run.steadyState);
    let deviation = 0.01;
    for (let t = 1; t <= 20; t++) {
      names.forEach((name, i) => {
        expect(path[name]![t]! - run.steadyState[name]!).toBeCloseTo(G[i]![iv]! * deviation, 12);
      });
      deviation *= 0.5;
    }
  });
});

describe('moments and simulation', () => {
  it('simulated moments approach the theoretical ones in a long sample', () => {
    const run = runModel(canonicalModel('RBC'), { periods: 10_000, seed: 7 });
    const theo = run.theoreticalMoments!;
    const sim = run.simulatedMoments;
    theo.std.forEach((s, i) => expect(Math.abs(sim.std[i]! - s!) / s!).toBeLessThan(0.15));
    expect(run.simulation.series.y).toHaveLength(10_000);
    // the same seed gives the same path; another seed another one
    expect(runModel(canonicalModel('RBC'), { periods: 50, seed: 7 }).simulation.series.y).toEqual(
      runModel(canonicalModel('RBC'), { periods: 50, seed: 7 }).simulation.series.y,
    );
    expect(
      runModel(canonicalModel('RBC'), { periods: 50, seed: 8 }).simulation.series.y,
    ).not.toEqual(runModel(canonicalModel('RBC'), { periods: 50, seed: 7 }).simulation.series.y);
  });

  it('the normal generator has mean 0 and variance 1', () => {
    const draw = normalGenerator(3);
    const xs = Array.from({ length: 100_000 }, draw);
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length;
    expect(Math.abs(mean)).toBeLessThan(0.01);
    expect(Math.abs(variance - 1)).toBeLessThan(0.02);
  });

  it('the HP filter removes linear trends and HP-filtered theoretical moments match filtered simulations', () => {
    const line = Float64Array.from({ length: 200 }, (_, t) => 3 + 0.5 * t);
    hpCycle(line).forEach((c) => expect(Math.abs(c)).toBeLessThan(1e-8));
    const m = compileModel(canonicalModel('RBC'));
    const solved = solveModel(m);
    const run = runModel(m, { periods: 5000, seed: 11 });
    const target = {
      variable: 'y',
      statistic: 'std' as const,
      filter: 'hp' as const,
      value: 0,
      source: '',
    };
    const theoretical = run.targets.length ? run.targets[0]!.model! : NaN;
    const simulated = Float64Array.from(run.simulation.series.y!, (v) => v - run.steadyState.y!);
    const cycle = hpCycle(simulated);
    const sampleStd = Math.sqrt(cycle.reduce((a, b) => a + b * b, 0) / cycle.length);
    expect(theoretical).toBeGreaterThan(0);
    expect(Math.abs(sampleStd - theoretical) / theoretical).toBeLessThan(0.1);
    expect(solved.sigma[0]).toBe(0.007);
    void target;
  });
});

describe('every library model', () => {
  it.each(LIBRARY_TYPES)('%s solves, simulates and has computed results', (type) => {
    const model = canonicalModel(type);
    const run = runModel(model, { periods: 100 });
    expect(run.blanchardKahn.satisfied).toBe(true);
    expect(Object.keys(run.steadyState)).toEqual(model.endogenous.map((v) => v.name));
    Object.values(run.steadyState).forEach((v) => expect(Number.isFinite(v)).toBe(true));
    for (const shock of model.exogenous) {
      for (const v of model.endogenous) {
        const irf = run.irfs[shock.name]![v.name]!;
        expect(irf).toHaveLength(40);
        irf.forEach((x) => expect(Number.isFinite(x)).toBe(true));
      }
    }
    // each shock moves something
    for (const shock of model.exogenous) {
      expect(
        Math.max(...Object.values(run.irfs[shock.name]!).map((p) => Math.abs(p[0]!))),
      ).toBeGreaterThan(0);
    }
    expect(run.theoreticalMoments).not.toBeNull();
    for (const v of model.endogenous) expect(run.simulation.series[v.name]).toHaveLength(100);
    run.simulatedMoments.std.forEach((s) => expect(Number.isFinite(s)).toBe(true));
    run.targets.forEach((t) => expect(t.model).not.toBeNull());
    if (model.scenario) {
      expect(run.transition!.residual).toBeLessThan(1e-8);
      expect(run.comparativeStatics).toHaveLength(model.endogenous.length);
    }
    // every parameter has a source and every equation a LaTeX form
    model.parameters.forEach((p) => expect(p.source.length).toBeGreaterThan(5));
    model.equations.forEach((e) => expect(e.latex?.length).toBeGreaterThan(3));
    expect(model.framework.length).toBeGreaterThan(500);
    expect(model.references.length).toBeGreaterThanOrEqual(2);
  });
});

describe('bad inputs give clear errors', () => {
  it('an unknown model type', () => {
    expect(modelError(() => canonicalModel('Keynesian cross')).message).toBe(
      "Unknown model type 'Keynesian cross'; choose one of DSGE, RBC, NK, OLG, IO, Trade, Urban, Labor, Finance, Environmental",
    );
  });

  it('simulation periods out of range, and unparsable periods falling back to 240', () => {
    const e = modelError(() => runModel(canonicalModel('NK'), { periods: 5 }));
    expect(e.code).toBe('invalid_input');
    expect(e.message).toBe('Simulation periods must be a whole number from 20 to 10000 (got 5)');
    expect(modelError(() => runModel(canonicalModel('NK'), { periods: 20_001 })).message).toMatch(
      /got 20001/,
    );
    expect(modelError(() => runModel(canonicalModel('NK'), { irfPeriods: 0 })).message).toMatch(
      /Impulse-response periods/,
    );
    expect(parseSimulationPeriods('abc')).toBe(240);
    expect(parseSimulationPeriods('')).toBe(240);
    expect(parseSimulationPeriods(undefined)).toBe(240);
    expect(parseSimulationPeriods(' 120 ')).toBe(120);
    expect(parseSimulationPeriods(360)).toBe(360);
    expect(
      runModel(canonicalModel('NK'), { periods: parseSimulationPeriods('twelve') }).simulation
        .periods,
    ).toBe(240);
  });

  it('an equation that does not parse names the equation and the problem', () => {
    const m = variant('RBC', (d) => {
      d.equations[1]!.text = 'psi*exp(phi*n) = exp(w - c) +';
      d.equations[3]!.text = 'w = log(1 - alfa) + y - n';
    });
    const e = modelError(() => compileModel(m));
    expect(e.code).toBe('parse_error');
    expect(e.message).toBe(
      "The model's equations do not parse: equation 2 (Labour supply) does not parse: unexpected end of equation at position 30",
    );
    expect(e.details[1]).toMatch(/equation 4 \(Wage\) does not parse: unknown name 'alfa'/);
  });

  it('a model that fails the Blanchard-Kahn conditions', () => {
    // passive monetary policy: indeterminacy
    const passive = modelError(() =>
      runModel(canonicalModel('NK'), { overrides: { phi_pi: 0.5 } }),
    );
    expect(passive.code).toBe('blanchard_kahn');
    expect(passive.message).toBe(
      'Blanchard-Kahn conditions are not satisfied: there is 1 eigenvalue larger than 1 in modulus for 2 forward-looking variables, so the model has infinitely many stable solutions (indeterminacy). Check the signs and timing of the equations and the parameter values (for example the Taylor principle).',
    );
    // an explosive exogenous process: more explosive roots than forward-looking variables
    const explosive = modelError(() =>
      runModel(canonicalModel('NK'), { overrides: { rho_a: 1.2 } }),
    );
    expect(explosive.message).toMatch(
      /^Blanchard-Kahn conditions are not satisfied: there are 3 eigenvalues larger than 1 in modulus for 2 forward-looking variables, so the model has no stable solution/,
    );
  });

  it('inconsistent descriptions and failing steady states', () => {
    const tooFew = variant('RBC', (d) => {
      d.equations.pop();
    });
    expect(modelError(() => compileModel(tooFew)).message).toMatch(
      /the model has 7 equations for 8 endogenous variables; the counts must be equal/,
    );
    const twice = variant('RBC', (d) => {
      d.parameters.push({ name: 'alpha', label: 'again', value: 1, source: 'x' });
    });
    expect(modelError(() => compileModel(twice)).message).toMatch(
      /the name 'alpha' is declared twice/,
    );
    const reserved = variant('RBC', (d) => {
      d.parameters.push({ name: 'exp', label: 'x', value: 1, source: 'x' });
    });
    expect(modelError(() => compileModel(reserved)).message).toMatch(
      /the parameter name 'exp' is reserved/,
    );
    const badShock = variant('RBC', (d) => {
      d.exogenous[0]!.stderr = 'nonesuch';
    });
    expect(modelError(() => compileModel(badShock)).message).toMatch(
      /its stderr 'nonesuch' is not a declared parameter/,
    );
    const notANumber = {
      ...canonicalModel('RBC'),
      equations: 'none',
    } as unknown as ModelDescriptionInput;
    expect(modelError(() => compileModel(notANumber)).code).toBe('invalid_model');

    // no steady state: hours cannot satisfy a condition with a negative log argument
    const noSteady = variant('RBC', (d) => {
      d.steadyState = { n: -5, k: 1, c: 1, y: 1, inv: 1, w: 1, r: 1, a: 0 };
      d.equations[1]!.text = 'psi*exp(phi*n) = log(-exp(w - c))';
    });
    const ss = modelError(() => runModel(noSteady));
    expect(ss.code).toBe('steady_state');
    expect(ss.message).toMatch(
      /equation 2 \(Labour supply\) cannot be evaluated at the starting values/,
    );

    const badOverride = modelError(() =>
      runModel(canonicalModel('RBC'), { overrides: { gamma: 1 } }),
    );
    expect(badOverride.message).toBe("Unknown parameter 'gamma'");
    expect(
      modelError(() => runModel(canonicalModel('RBC'), { overrides: { psi: 1 } })).message,
    ).toMatch(/computed from other parameters/);
  });

  it('steady-state formulas in any order, and a cycle among them', () => {
    // a stored description may come back with its keys reordered (PostgreSQL jsonb)
    const reversed = variant('RBC', (d) => {
      d.steadyState = Object.fromEntries(Object.entries(d.steadyState).reverse());
    });
    expect(runModel(reversed).steadyState).toEqual(runModel(canonicalModel('RBC')).steadyState);
    const cycle = variant('RBC', (d) => {
      d.steadyState = { ...d.steadyState, y: 'c + 1', c: 'log(exp(y) - exp(inv))' };
    });
    expect(modelError(() => compileModel(cycle)).message).toMatch(
      /^The steady-state formulas refer to each other in a cycle: (y -> c -> y|c -> y -> c)$/,
    );
    const unknown = variant('RBC', (d) => {
      d.steadyState = { k: 'log(w)' };
    });
    expect(modelError(() => compileModel(unknown)).message).toMatch(/unknown name 'w'/);
  });

  it('a variable in no equation, and dependent equations', () => {
    const missing = variant('NK', (d) => {
      // the real-rate equation replaced by a copy of the output identity: r is in no equation
      d.equations[3]!.text = 'y = x + yn';
    });
    expect(modelError(() => runModel(missing)).message).toBe(
      "The variable 'r' appears in no equation",
    );
    const dependent = variant('NK', (d) => {
      // natural output replaced by a copy of the output identity: the system is singular
      d.equations[5]!.text = '2*y = 2*x + 2*yn';
    });
    const e = modelError(() => runModel(dependent));
    // the steady state (all zeros) is found at once; the first-order solution then fails
    expect(e.code).toBe('singular');
    expect(e.message).toMatch(
      /^The linearised model is singular: its equations do not determine all variables/,
    );
    // from another start Newton's method meets the singular Jacobian itself
    const moved = { ...dependent, steadyState: { x: 0.1 } };
    expect(modelError(() => runModel(moved)).message).toMatch(
      /the Jacobian of the static equations is singular/,
    );
  });
});

describe('moment matching', () => {
  it('recovers the shock size that matches a volatility target exactly (std is linear in sigma)', () => {
    const model = compileModel(canonicalModel('RBC'));
    const base = runModel(model).targets.find((t) => t.statistic === 'std')!.model!;
    const target = {
      variable: 'y',
      statistic: 'std' as const,
      filter: 'hp' as const,
      value: 0.0181,
      source: 'King and Rebelo (1999)',
    };
    const result = matchMoments(model, [target], [{ name: 'sigma_a', lower: 0.001, upper: 0.05 }]);
    expect(result.parameters[0]!.estimate).toBeCloseTo(0.007 * (0.0181 / base), 6);
    expect(result.objectiveAfter).toBeLessThan(1e-10);
    expect(result.objectiveAfter).toBeLessThan(result.objectiveBefore);
    expect(result.targets[0]!.model).toBeCloseTo(0.0181, 8);
    expect(parameterVector(model, result.overrides)[model.params.indexOf('sigma_a')]).toBe(
      result.parameters[0]!.estimate,
    );
  });

  it('moves the Labor model towards the Shimer volatility facts by raising the value of non-work', () => {
    const model = compileModel(canonicalModel('Labor'));
    const d = model.description;
    const result = matchMoments(model, d.targets, d.estimated);
    expect(result.objectiveAfter).toBeLessThan(result.objectiveBefore);
    const z = result.parameters.find((p) => p.name === 'z')!;
    expect(z.estimate).toBeGreaterThan(z.initial);
  });

  it('refuses to estimate unknown or derived parameters', () => {
    const model = compileModel(canonicalModel('RBC'));
    const t = canonicalModel('RBC').targets;
    expect(
      modelError(() => matchMoments(model, t, [{ name: 'zeta', lower: 0, upper: 1 }])).message,
    ).toMatch(/'zeta': it is not a parameter/);
    expect(
      modelError(() => matchMoments(model, t, [{ name: 'psi', lower: 0, upper: 1 }])).message,
    ).toMatch(/computed from other/);
    expect(
      modelError(() => matchMoments(model, [], [{ name: 'rho', lower: 0, upper: 1 }])).message,
    ).toMatch(/at least one target/);
  });
});
