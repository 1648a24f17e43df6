/**
 * The Nelder-Mead downhill simplex (Nelder and Mead 1965, with the standard coefficients of
 * Lagarias et al. 1998: reflection 1, expansion 2, contraction 1/2, shrink 1/2).
 *
 * Written here rather than taken from fmin 0.0.4, the package the project installed: its
 * shrink step assigns an undeclared loop variable (`for (i = 1; ...)` in strict-mode code), so
 * any search that needs a shrink throws a ReferenceError.
 */
export interface NelderMeadOptions {
  maxIterations?: number;
  /** Stop when the objective values of the simplex differ by less than this. */
  fTolerance?: number;
  /** ... and the vertices lie within this distance of the best one (max norm). */
  xTolerance?: number;
  /** Size of the initial simplex along each axis. */
  step?: number;
}

export interface NelderMeadResult {
  x: number[];
  fx: number;
  iterations: number;
}

export function nelderMead(
  f: (x: number[]) => number,
  x0: number[],
  {
    maxIterations = 200 * x0.length,
    fTolerance = 1e-12,
    xTolerance = 1e-9,
    step = 0.25,
  }: NelderMeadOptions = {},
): NelderMeadResult {
  const n = x0.length;
  const evaluate = (x: number[]): { x: number[]; fx: number } => {
    const fx = f(x);
    return { x, fx: Number.isNaN(fx) ? Infinity : fx };
  };
  let simplex = [evaluate([...x0])];
  for (let i = 0; i < n; i++) {
    const x = [...x0];
    x[i] = (x[i] as number) + step;
    simplex.push(evaluate(x));
  }
  const combine = (a: number[], b: number[], t: number): number[] =>
    a.map((v, i) => v + t * ((b[i] as number) - v));
  let iterations = 0;
  for (; iterations < maxIterations; iterations++) {
    simplex.sort((a, b) => a.fx - b.fx);
    const best = simplex[0] as { x: number[]; fx: number };
    const worst = simplex[n] as { x: number[]; fx: number };
    const spreadF = worst.fx - best.fx;
    const spreadX = Math.max(
      ...simplex.map((v) => Math.max(...v.x.map((c, i) => Math.abs(c - (best.x[i] as number))))),
    );
    if (spreadF <= fTolerance && spreadX <= xTolerance) break;
    // centroid of all but the worst vertex
    const centroid = Array.from(
      { length: n },
      (_, i) => simplex.slice(0, n).reduce((s, v) => s + (v.x[i] as number), 0) / n,
    );
    const reflected = evaluate(combine(centroid, worst.x, -1));
    const secondWorst = simplex[n - 1] as { fx: number };
    if (reflected.fx < best.fx) {
      const expanded = evaluate(combine(centroid, worst.x, -2));
      simplex[n] = expanded.fx < reflected.fx ? expanded : reflected;
      continue;
    }
    if (reflected.fx < secondWorst.fx) {
      simplex[n] = reflected;
      continue;
    }
    const outside = reflected.fx < worst.fx;
    const contracted = evaluate(combine(centroid, outside ? reflected.x : worst.x, 0.5));
    if (contracted.fx < (outside ? reflected.fx : worst.fx)) {
      simplex[n] = contracted;
      continue;
    }
    // shrink towards the best vertex
    simplex = [best, ...simplex.slice(1).map((v) => evaluate(combine(best.x, v.x, 0.5)))];
  }
  simplex.sort((a, b) => a.fx - b.fx);
  const best = simplex[0] as { x: number[]; fx: number };
  return { x: best.x, fx: best.fx, iterations };
}
