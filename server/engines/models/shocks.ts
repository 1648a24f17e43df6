import { valueWidth, type CompiledModel } from './compile';
import { ModelError } from './errors';
import { zeros, type Mat } from './linalg';

/**
 * The shocks' covariance matrix Sigma_e and the two factorisations Dynare uses of it: the
 * impulses of its impulse responses and the draws of its simulations.
 */

/**
 * Sigma_e as Dynare's shocks block builds it: the variance of each shock is the square of its
 * standard-deviation parameter; `cov` sets an off-diagonal term as given, `corr` as the
 * correlation times both standard deviations. Throws when a standard deviation is negative, a
 * correlation is outside [-1, 1] or the matrix is not positive semi-definite.
 */
export function shockCovariance(model: CompiledModel, params: Float64Array): Mat {
  const m = model.exo.length;
  const sigma = Float64Array.from(model.stderrParam, (i) => params[i] as number);
  sigma.forEach((s, k) => {
    if (!(s >= 0)) {
      throw new ModelError(
        'invalid_model',
        `The standard deviation of shock '${model.exo[k]}' must be zero or positive (got ${s})`,
      );
    }
  });
  const omega = zeros(m, m);
  for (let k = 0; k < m; k++) (omega[k] as Float64Array)[k] = (sigma[k] as number) ** 2;
  if (model.correlations.length === 0) return omega;
  const values = new Float64Array(valueWidth(model));
  values.set(params, 3 * model.endo.length + m);
  for (const { first, second, kind, fn } of model.correlations) {
    const pair = `${model.exo[first]} and ${model.exo[second]}`;
    const v = fn(values);
    if (!Number.isFinite(v)) {
      throw new ModelError(
        'invalid_model',
        `The ${kind === 'corr' ? 'correlation' : 'covariance'} of shocks ${pair} evaluates to ${v}`,
      );
    }
    if (kind === 'corr' && Math.abs(v) > 1) {
      throw new ModelError(
        'invalid_model',
        `The correlation of shocks ${pair} must lie between -1 and 1 (got ${v})`,
      );
    }
    const c = kind === 'corr' ? v * (sigma[first] as number) * (sigma[second] as number) : v;
    (omega[first] as Float64Array)[second] = c;
    (omega[second] as Float64Array)[first] = c;
  }
  if (!lowerCholesky(omega)) {
    throw new ModelError(
      'invalid_model',
      'The covariance matrix of the shocks is not positive semi-definite: a covariance is larger than the standard deviations allow, or the correlations contradict each other',
    );
  }
  return omega;
}

/** A diagonal covariance from standard deviations (independent shocks). */
export function diagonalCovariance(sigma: Float64Array): Mat {
  const omega = zeros(sigma.length, sigma.length);
  sigma.forEach((s, k) => ((omega[k] as Float64Array)[k] = s * s));
  return omega;
}

/**
 * Lower-triangular L with L L' = S for a positive semi-definite S (a zero pivot gives a zero
 * column, so shocks with zero variance are allowed); null when S is not positive semi-definite.
 */
export function lowerCholesky(S: Mat): Mat | null {
  const n = S.length;
  const scale = Math.max(0, ...S.map((row, i) => Math.abs(row[i] as number)));
  const tol = 1e-12 * scale;
  const L = zeros(n, n);
  for (let j = 0; j < n; j++) {
    const lj = L[j] as Float64Array;
    let d = (S[j] as Float64Array)[j] as number;
    for (let k = 0; k < j; k++) d -= (lj[k] as number) ** 2;
    if (d < -tol) return null;
    const pivot = d > tol ? Math.sqrt(d) : 0;
    lj[j] = pivot;
    for (let i = j + 1; i < n; i++) {
      const li = L[i] as Float64Array;
      let v = (S[i] as Float64Array)[j] as number;
      for (let k = 0; k < j; k++) v -= (li[k] as number) * (lj[k] as number);
      if (pivot === 0) {
        // |S_ij| <= sqrt(S_ii S_jj) in a positive semi-definite matrix
        if (Math.abs(v) > 2 * Math.sqrt(tol * scale)) return null;
        li[j] = 0;
      } else {
        li[j] = v / pivot;
      }
    }
  }
  return L;
}

/** Dynare's stoch_simul leaves out the impulse responses of a shock with a variance this small. */
const IRF_VARIANCE_THRESHOLD = 1e-13 - 1e-14;

/**
 * The impulse of each shock's impulse responses, as Dynare's stoch_simul defines them at
 * order 1: column k of the lower Cholesky factor of Sigma_e (one-standard-deviation
 * orthogonalised shocks, in the declaration order of the shocks), so with correlated shocks
 * an impulse to the k-th shock also moves the shocks declared after it by their regression on
 * it. Null for a shock Dynare skips (variance not above 1e-13 after it adds 1e-14). For a
 * diagonal Sigma_e the impulse is the shock's standard deviation alone.
 */
export function irfImpulses(omega: Mat): (Float64Array | null)[] {
  const L = lowerCholesky(omega);
  if (!L) throw new ModelError('invalid_model', 'The shock covariance matrix is not valid');
  return omega.map((row, k) =>
    (row[k] as number) > IRF_VARIANCE_THRESHOLD
      ? Float64Array.from(L, (r) => r[k] as number)
      : null,
  );
}
