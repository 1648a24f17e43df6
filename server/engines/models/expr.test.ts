import { describe, expect, it } from 'vitest';
import {
  compile,
  differentiate,
  equationToLatex,
  ExpressionError,
  parseEquation,
  parseExpression,
  toDynare,
  type Expr,
  type Lag,
  type SymbolRole,
} from './expr';

const roles: Record<string, SymbolRole> = {
  c: 'endo',
  k: 'endo',
  y: 'endo',
  e: 'exo',
  alpha: 'param',
  beta: 'param',
};
const resolve = (name: string): SymbolRole | undefined => roles[name];

/** Evaluates with c, k, y at each date and parameters from a table. */
function evaluate(expr: Expr, values: Record<string, number>): number {
  const names = Object.keys(roles);
  const fn = compile(expr, (name, _role, lag: Lag) => names.indexOf(name) * 3 + (lag + 1));
  const v = new Float64Array(names.length * 3);
  names.forEach((name, i) => {
    for (const lag of [-1, 0, 1]) {
      const key = lag === 0 ? name : `${name}(${lag > 0 ? '+1' : '-1'})`;
      v[i * 3 + lag + 1] = values[key] ?? values[name] ?? 0;
    }
  });
  return fn(v);
}

function parseError(text: string): string {
  try {
    parseEquation(text, resolve);
  } catch (err) {
    expect(err).toBeInstanceOf(ExpressionError);
    return (err as Error).message;
  }
  throw new Error(`'${text}' parsed`);
}

describe('expression parser', () => {
  it('parses Dynare syntax with leads, lags, precedence and functions', () => {
    const expr = parseEquation(
      'c^(-2) = beta*c(+1)^(-2)*(alpha*k^(alpha-1) + 1 - 0.025) + e',
      resolve,
    );
    const values = { c: 1.5, 'c(+1)': 1.6, k: 10, alpha: 0.33, beta: 0.99, e: 0.1 };
    const lhs = 1.5 ** -2;
    const rhs = 0.99 * 1.6 ** -2 * (0.33 * 10 ** (0.33 - 1) + 1 - 0.025) + 0.1;
    expect(evaluate(expr, values)).toBeCloseTo(lhs - rhs, 14);
    expect(evaluate(parseExpression('-k^2', resolve), { k: 3 })).toBe(-9);
    expect(evaluate(parseExpression('2^-1', resolve), {})).toBe(0.5);
    expect(
      evaluate(parseExpression('k(-1) - k(1) + k(0)', resolve), { 'k(-1)': 5, 'k(+1)': 2, k: 1 }),
    ).toBe(4);
    expect(
      evaluate(parseExpression('exp(log(k)) + sqrt(k) + abs(-k) + ln(k)', resolve), { k: 4 }),
    ).toBeCloseTo(4 + 2 + 4 + Math.log(4), 14);
    expect(evaluate(parseExpression('1e-3 + .5 + 2.', resolve), {})).toBeCloseTo(2.501, 15);
  });

  it('prints Dynare text that parses back to the same function', () => {
    const texts = [
      'c^(-2) = beta*c(+1)^(-2)*(alpha*k^(alpha-1) + 1 - 0.025)',
      'y = exp(k(-1))^alpha - (c - (k - y)) / (k/(y*c))',
      '-(-k)^2 - -y = k^(c^2)',
      'c = 1/(1 + beta)*k - e',
    ];
    const values = {
      c: 1.3,
      'c(+1)': 1.1,
      k: 2.2,
      'k(-1)': 2.1,
      y: 0.7,
      alpha: 0.3,
      beta: 0.96,
      e: 0.05,
    };
    for (const text of texts) {
      const expr = parseEquation(text, resolve);
      const again = parseExpression(toDynare(expr), resolve);
      expect(evaluate(again, values)).toBeCloseTo(evaluate(expr, values), 12);
    }
  });

  it('refuses bad equations with a message that says what and where', () => {
    expect(parseError('c = gamma*k')).toMatch(/unknown name 'gamma' at position 5/);
    expect(parseError('c = k(+2)')).toMatch(/only one-period leads and lags/);
    expect(parseError('c = e(-1)')).toMatch(/shock 'e' enters only at date t/);
    expect(parseError('c = alpha(+1)')).toMatch(/parameter 'alpha' cannot have a time index/);
    expect(parseError('c = k^alpha^beta')).toMatch(/ambiguous power/);
    expect(parseError('c = k = y')).toMatch(/a second '='/);
    expect(parseError('c = (k + y')).toMatch(/expected '\)'/);
    expect(parseError('c = k $ y')).toMatch(/unexpected character '\$' at position 7/);
    expect(parseError('c = log k')).toMatch(/function 'log' needs an argument/);
    expect(parseError('c = k(x)')).toMatch(/time index/);
    expect(parseError('= k')).toMatch(/unexpected '='/);
    expect(parseError('c = ')).toMatch(/end of equation/);
  });

  it('differentiates exactly: symbolic derivatives agree with finite differences', () => {
    const expr = parseEquation(
      'exp(-2*c)*k(-1)^alpha/y + sqrt(k)*log(y + c(+1)) - (k/c)^(y/2) + abs(c - k)*beta',
      resolve,
    );
    const point = { c: 0.8, 'c(+1)': 0.9, k: 1.7, 'k(-1)': 1.6, y: 1.2, alpha: 0.3, beta: 0.95 };
    for (const [name, lag] of [
      ['c', 0],
      ['c', 1],
      ['k', 0],
      ['k', -1],
      ['y', 0],
    ] as const) {
      const key = lag === 0 ? name : `${name}(${lag > 0 ? '+1' : '-1'})`;
      const d = differentiate(expr, { name, lag });
      const h = 1e-6;
      const up = evaluate(expr, { ...point, [key]: (point as Record<string, number>)[key]! + h });
      const down = evaluate(expr, { ...point, [key]: (point as Record<string, number>)[key]! - h });
      expect(evaluate(d, point)).toBeCloseTo((up - down) / (2 * h), 7);
    }
    // a symbol that does not occur has derivative exactly zero
    expect(differentiate(expr, { name: 'e', lag: 0 })).toEqual({ kind: 'num', value: 0 });
  });

  it('writes LaTeX with dates as subscripts and Greek names', () => {
    const expr = parseEquation('c = beta*c(+1)/k(-1)', resolve);
    expect(equationToLatex(expr)).toBe('c_{t} = \\frac{\\beta \\, c_{t+1}}{k_{t-1}}');
  });

  it("reads Dynare's steady_state(): its value at the point of evaluation, a zero derivative", () => {
    const expr = parseEquation('y = c*steady_state(c)', resolve);
    expect(toDynare(expr)).toBe('y - c*steady_state(c)');
    // d/dc of c * steady_state(c) is steady_state(c) alone: the operator is a constant
    expect(toDynare(differentiate(expr, { name: 'c', lag: 0 }))).toBe('-steady_state(c)');
    expect(equationToLatex(expr)).toBe('y_{t} = c_{t} \\, \\overline{c_{t}}');
  });
});

describe('hostile expressions', () => {
  const resolve = (name: string) => (name === 'a' ? ('param' as const) : undefined);

  it('refuses nesting deeper than the limit with an expression error, not a stack overflow', () => {
    const huge = '('.repeat(50_000) + 'a' + ')'.repeat(50_000);
    expect(() => parseExpression(huge, resolve)).toThrow(ExpressionError);
    const deep = '('.repeat(300) + 'a' + ')'.repeat(300);
    expect(() => parseExpression(deep, resolve)).toThrow(/nested more than 200 levels/);
    expect(() => parseExpression('-'.repeat(300) + 'a', resolve)).toThrow(/nested more than 200/);
  });

  it('accepts nesting up to the limit', () => {
    const ok = '('.repeat(150) + 'a' + ')'.repeat(150);
    expect(parseExpression(ok, resolve)).toMatchObject({ kind: 'sym', name: 'a' });
  });

  it('refuses an expression longer than the token limit', () => {
    const long = Array.from({ length: 3000 }, () => 'a').join('+');
    expect(() => parseExpression(long, resolve)).toThrow(/longer than 5000/);
  });
});
