import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModImportError } from './errors';
import { importModFile, stripComments } from './mod-import';
import { runModel } from './run';

const testdata = (name: string): string =>
  readFileSync(path.join(import.meta.dirname, 'testdata', name), 'utf8');

function refusal(source: string): ModImportError {
  try {
    importModFile(source);
  } catch (err) {
    expect(err).toBeInstanceOf(ModImportError);
    return err as ModImportError;
  }
  throw new Error('expected the import to be refused');
}

/** A small AR(1) model the tests vary. */
const AR1 = `var y, x;
varexo e;
parameters rho, s;
rho = 0.9;
s = 0.01;
model;
y = rho*y(-1) + e;
x = 2*y;
end;
shocks;
var e; stderr s;
end;
`;

describe('.mod import', () => {
  it("reads Dynare's example1.mod as shipped: values, the mod-file constant phi, the covariance and the default order", () => {
    const result = importModFile(testdata('example1.mod'), { fileName: 'example1.mod' });
    const d = result.description;
    expect(d.endogenous.map((v) => v.name)).toEqual(['y', 'c', 'k', 'a', 'h', 'b']);
    expect(d.exogenous).toEqual([
      { name: 'e', label: 'e', stderr: 'stderr_e' },
      { name: 'u', label: 'u', stderr: 'stderr_u' },
    ]);
    const value = (name: string) => d.parameters.find((p) => p.name === name);
    expect(value('alpha')).toMatchObject({ value: 0.36, source: '.mod file, line 31' });
    expect(value('stderr_e')).toMatchObject({ value: 0.009 });
    // phi = 0.1 is not a declared parameter: a constant of the file, used by the covariance
    expect(value('phi')).toBeUndefined();
    expect(d.shockCorrelations).toEqual([
      { shocks: ['e', 'u'], kind: 'cov', value: 0.1 * 0.009 * 0.009 },
    ]);
    expect(d.steadyState).toMatchObject({ y: 1.08068253095672, k: 11.08360443260358, a: 0 });
    expect(d.equations[1]!.text).toBe(
      'k = beta*(((exp(b)*c)/(exp(b(+1))*c(+1))) *(exp(b(+1))*alpha*y(+1)+(1-delta)*k))',
    );
    expect(result.stochSimul).toEqual({ line: 68, variables: [], ignoredOptions: [] });
    expect(result.notes).toEqual([
      "Line 68: stoch_simul gives no order: Dynare's default is order=2; the engine computes the first-order solution (order=1).",
    ]);
    expect(result.notRun).toEqual([]);
    expect(runModel(d).blanchardKahn.satisfied).toBe(true);
  });

  it("reads Dynare's Gali_2015.mod up to its stoch_simul and lists the rest as not run", () => {
    const result = importModFile(testdata('Gali_2015.mod'));
    const d = result.description;
    expect(d.endogenous).toHaveLength(14);
    expect(d.endogenous[0]).toEqual({ name: 'pi', label: 'inflation', latex: '{\\pi}' });
    // # locals of parameters only become parameters computed from the others
    expect(d.parameters.find((p) => p.name === 'kappa')).toMatchObject({
      expr: 'lambda*(siggma+(varphi+alppha)/(1-alppha))',
    });
    expect(d.parameters.find((p) => p.name === 'theta')).toMatchObject({ value: 0.75 });
    // [name=...] tags label the equations; steady_state() is kept
    expect(d.equations[0]!.label).toBe('New Keynesian Phillips Curve eq. (22)');
    expect(d.equations.find((e) => e.text.includes('steady_state'))!.text).toBe(
      'yhat=y-steady_state(y)',
    );
    // var eps_nu = 0.0025^2 is a variance; shocks without one have none
    const sd = (name: string) =>
      d.parameters.find((p) => p.name === d.exogenous.find((s) => s.name === name)!.stderr)!;
    expect(sd('eps_nu').value).toBeCloseTo(0.0025, 17);
    expect(sd('eps_a').value).toBe(0);
    expect(result.stochSimul).toEqual({
      line: 137,
      variables: ['yhat'],
      ignoredOptions: [],
    });
    expect(result.runOptions).toEqual({ periods: 100, burnIn: 0 });
    expect(d.keyVariables).toEqual(['yhat']);
    expect(result.notes.some((n) => n.includes('irf=0'))).toBe(true);
    expect(result.notRun.map((s) => s.line)).toEqual([
      139, 141, 147, 150, 151, 152, 154, 155, 156, 157, 158, 159, 163, 164, 165, 166, 167, 168, 169,
      170, 171, 175, 177, 178, 179, 180, 181, 182, 183, 184,
    ]);
    expect(result.notRun[0]!.statement).toBe("datatomfile('sim_data',{'yhat'});");
    expect(result.notRun[1]!.statement).toMatch(/^estimated_params; \.\.\. end; \(3 statements\)$/);
    expect(result.notRun.find((r) => r.line === 175)!.statement).toMatch(
      /^estimation\(datafile='sim_data'/,
    );
    const run = runModel(d, result.runOptions);
    expect(run.unitRoot?.nonStationary).toEqual(['p', 'w']);
  });

  it('refuses a perfect-foresight scenario for a model that uses steady_state()', () => {
    const d = importModFile(testdata('Gali_2015.mod')).description;
    const withScenario = {
      ...d,
      scenario: { title: 't', description: '', changes: { phi_pi: 2 }, initialFactor: {} },
    };
    expect(() => runModel(withScenario)).toThrow(
      /cannot be computed for a model whose equations use steady_state\(\)/,
    );
  });

  it('evaluates parameter values in order, as Dynare does, and keeps the file values as numbers', () => {
    const d = importModFile(
      AR1.replace('s = 0.01;', 's = 0.01;\nhalf = rho/2;\nrho = half + 0.5;'),
    ).description;
    // rho = 0.9 / 2 + 0.5 with the value rho had when half was set
    expect(d.parameters.find((p) => p.name === 'rho')).toMatchObject({
      value: 0.95,
      source: '.mod file, line 7: rho = half + 0.5',
    });
  });

  it('handles //, /* */ and % comments, keeping line numbers and quoted text', () => {
    expect(stripComments("a; // x\nb /* y\nz */ c; % w\nd='50%';")).toBe(
      "a;     \nb     \n     c;    \nd='50%';",
    );
    const e = refusal(`/* a
comment */ var y; // declared
varexo e;
histval; y(0) = 1; end;`);
    expect(e.line).toBe(4);
    expect(e.construct).toBe('histval');
  });

  it('accepts initval, steady_state_model with temporaries, steady, check and stoch_simul options', () => {
    const source = `var c, k;
varexo e;
parameters alpha, beta, delta, sig;
alpha = 0.36; beta = 0.99; delta = 0.025; sig = 0.01;
model;
# r = alpha*k(-1)^(alpha-1) + 1 - delta;
1/c = beta/c(+1)*(alpha*exp(e)*k^(alpha-1) + 1 - delta);
k = exp(e)*k(-1)^alpha - c + (1 - delta)*k(-1) + 0*r;
end;
initval;
k = 30; c = 2; e = 0;
end;
steady_state_model;
kk = (alpha/(1/beta - 1 + delta))^(1/(1 - alpha));
k = kk;
c = k^alpha - delta*k;
end;
steady(solve_algo=4);
check;
shocks; var e = sig^2; end;
stoch_simul(order=1, irf=20, periods=500, drop=50, hp_filter=1600, nograph) c k;
`;
    const result = importModFile(source);
    expect(result.description.steadyState).toEqual({
      k: '((alpha/(1/beta - 1 + delta))^(1/(1 - alpha)))',
      c: 'k^alpha - delta*k',
    });
    expect(result.runOptions).toEqual({ irfPeriods: 20, periods: 500, burnIn: 50 });
    expect(result.stochSimul?.ignoredOptions).toEqual(['hp_filter=1600', 'nograph']);
    expect(result.notes).toEqual([
      "Line 18: steady(solve_algo=4): options ignored; the engine finds the steady state by Newton's method from the given values.",
      "Line 19: 'check' has no effect here (the engine checks the Blanchard-Kahn conditions itself).",
      'Line 21: stoch_simul periods=500: with periods > 0 Dynare reports moments of its simulation; the engine reports theoretical moments and, separately, the moments of its own simulation of 500 periods.',
      'Line 21: stoch_simul options ignored: hp_filter=1600, nograph.',
    ]);
    // a # local with variables is substituted into the equations
    expect(result.description.equations[1]!.text).toBe(
      'k = exp(e)*k(-1)^alpha - c + (1 - delta)*k(-1) + 0*(alpha*k(-1)^(alpha-1) + 1 - delta)',
    );
    const run = runModel(result.description, result.runOptions);
    expect(run.steadyStateIterations).toBe(0);
    expect(run.irfs.e!.k).toHaveLength(20);
  });

  it('reads stderr, variances, covariances and correlations', () => {
    const d = importModFile(`var y, z;
varexo e, u;
parameters r, se;
r = 0.3; se = 0.02;
model; y = 0.5*y(-1) + e; z = 0.5*z(-1) + u; end;
shocks;
var e; stderr se;
var u = 0.0004;
corr e, u = r;
end;
stoch_simul(order = 1);`).description;
    expect(d.exogenous.map((s) => s.stderr)).toEqual(['se', 'stderr_u']);
    expect(d.parameters.find((p) => p.name === 'stderr_u')).toMatchObject({
      value: 0.02,
      source: '.mod file, shocks block, line 8 (variance 0.0004)',
    });
    expect(d.shockCorrelations).toEqual([{ shocks: ['e', 'u'], kind: 'corr', value: 'r' }]);
    const m = runModel(d).theoreticalMoments!;
    // var(y) = se^2 / (1 - 0.25), cov(y, z) = r se su / (1 - 0.25)
    expect(m.variance[0]![0]).toBeCloseTo(0.0004 / 0.75, 15);
    expect(m.variance[0]![1]).toBeCloseTo((0.3 * 0.02 * 0.02) / 0.75, 15);
  });

  it('refuses what it cannot run, naming the line and the construct', () => {
    const cases: [string, number, string, RegExp][] = [
      [`@#define N = 2\n${AR1}`, 1, '@#define', /macro directive @#define needs Dynare's macro/],
      [AR1.replace('model;', 'model;\n@#for i in 1:2\n@#endfor'), 7, '@#for', /macro directive/],
      [
        AR1.replace('varexo e;', 'varexo_det d;\nvarexo e;'),
        2,
        'varexo_det',
        /not supported before stoch_simul/,
      ],
      [
        `${AR1}estimated_params; rho, 0.5, 0, 1; end;\nstoch_simul;`,
        13,
        'estimated_params',
        /not supported before stoch_simul/,
      ],
      [`${AR1}set_param_value('rho', 0.5);`, 13, 'set_param_value', /not supported/],
      [
        `${AR1}stoch_simul(order=2);`,
        13,
        'stoch_simul(order=2)',
        /first-order \(order=1\) solutions only/,
      ],
      [`${AR1}stoch_simul(loglinear);`, 13, 'stoch_simul(loglinear)', /loglinear/],
      [AR1.replace('var y, x;', 'var(log) y, x;'), 1, 'var(log)', /without options/],
      [AR1.replace('s = 0.01;', ''), 3, 'parameters s', /'s' is never given a value/],
      [AR1.replace('s = 0.01;', 's = 2*q;'), 5, "'s'", /unknown name 'q'/],
      [
        AR1.replace('rho = 0.9;', 'rho = s;'),
        4,
        "'rho'",
        /uses the parameter 's' before it is given a value/,
      ],
      [
        AR1.replace('x = 2*y;', 'x = 2*y(+2);'),
        8,
        'model equation',
        /only one-period leads and lags/,
      ],
      [AR1.replace('x = 2*y;', 'x = normcdf(y);'), 8, 'model equation', /unknown name 'normcdf'/],
      [AR1.replace('x = 2*y;', ''), 6, 'model', /1 equations for 2 endogenous variables/],
      [
        AR1.replace('var e; stderr s;', 'var e; periods 1; values 0.1;'),
        11,
        'shocks: periods',
        /deterministic shocks/,
      ],
      [AR1.replace('var e; stderr s;', 'var y; stderr s;'), 11, 'shocks y', /not a declared shock/],
      [`${AR1}initval; e = 0.1; end;`, 13, 'initval e', /only zero is supported/],
      [AR1.replace('end;\nshocks', 'shocks'), 9, 'model equation', /'shocks' is not accepted/],
      [
        AR1.replace('parameters rho, s;', 'parameters rho, s, exp;'),
        3,
        'parameters',
        /function name/,
      ],
    ];
    for (const [source, line, construct, message] of cases) {
      const e = refusal(source);
      expect({ line: e.line, construct: e.construct }, source).toEqual({ line, construct });
      expect(e.message, source).toMatch(message);
      expect(e.message.startsWith(`Line ${line}: `)).toBe(true);
      expect(e.code).toBe('mod_import');
    }
  });

  it('refuses a model block without end and a file without a model', () => {
    expect(refusal('var y;\nvarexo e;\nmodel;\ny = e;\n').message).toMatch(
      /^Line 3: the model block has no end;$/,
    );
    expect(refusal('var y;\nvarexo e;\n').message).toMatch(/no model block/);
  });
});
