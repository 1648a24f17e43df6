/**
 * Exact moments of a list of doubles, for tests: every double is an integer times a power of
 * two, so on a common scale the sums of centred powers are exact integers (BigInt); only the
 * final ratios are rounded to doubles, once each. What the engine computes must agree with these
 * to a few units in the last place of the result, whatever the mean and the spread.
 */

const view = new DataView(new ArrayBuffer(8));

/** x = mantissa * 2^exponent, mantissa an integer (0 for x = 0). */
function decompose(x: number): { mantissa: bigint; exponent: number } {
  if (!Number.isFinite(x)) throw new Error(`not finite: ${x}`);
  if (x === 0) return { mantissa: 0n, exponent: 0 };
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (biased !== 0) mantissa |= 1n << 52n;
  const exponent = (biased === 0 ? 1 : biased) - 1075;
  return { mantissa: x < 0 ? -mantissa : mantissa, exponent };
}

const abs = (v: bigint) => (v < 0n ? -v : v);

/** The double nearest num / den (den > 0), to within one unit in the last place. */
export function ratio(num: bigint, den: bigint): number {
  if (den <= 0n) throw new Error('denominator must be positive');
  if (num === 0n) return 0;
  const sign = num < 0n ? -1 : 1;
  const a = abs(num);
  // Scale so that the integer quotient has about 64 significant bits.
  const shift = BigInt(Math.max(0, 64 - (a.toString(2).length - den.toString(2).length)));
  const q = (a << shift) / den;
  return (sign * Number(q)) / 2 ** Number(shift);
}

export interface ExactMoments {
  mean: number;
  /** Sample variance (n - 1) and standard deviation. */
  variance: number | null;
  sd: number | null;
  /** pandas' adjusted Fisher-Pearson skewness and bias-corrected excess kurtosis. */
  skewness: number | null;
  kurtosis: number | null;
}

export function exactMoments(values: number[]): ExactMoments {
  const n = values.length;
  if (n === 0) throw new Error('no values');
  const parts = values.map(decompose);
  const low = Math.min(...parts.map((p) => p.exponent));
  // Every value as an integer X on the scale 2^low: x = X * 2^low.
  const X = parts.map((p) => p.mantissa << BigInt(p.exponent - low));
  const N = BigInt(n);
  const S = X.reduce((s, x) => s + x, 0n);
  // n * (x - mean) on that scale: D = n X - S.
  let s2 = 0n;
  let s3 = 0n;
  let s4 = 0n;
  for (const x of X) {
    const d = N * x - S;
    const d2 = d * d;
    s2 += d2;
    s3 += d2 * d;
    s4 += d2 * d2;
  }
  const scale = 2 ** low;
  const mean = ratio(S, N) * scale;
  // variance = sum (x - mean)^2 / (n - 1) = s2 / (n^2 (n - 1)) * 2^(2 low).
  const variance = n > 1 ? ratio(s2, N * N * (N - 1n)) * scale * scale : null;
  const sd = variance === null ? null : Math.sqrt(variance);
  let skewness: number | null = null;
  let kurtosis: number | null = null;
  if (n >= 3) {
    // m3 / m2^1.5 = s3 / s2^1.5 (the scales cancel): the square root of s3^2 / s2^3, signed.
    const sign = s3 < 0n ? -1 : 1;
    const shape = s2 === 0n ? 0 : sign * Math.sqrt(ratio(s3 * s3, s2 * s2 * s2));
    skewness = ((n * Math.sqrt(n - 1)) / (n - 2)) * shape;
  }
  if (n >= 4) {
    // n (n+1) (n-1) m4 / ((n-2)(n-3) m2^2) - 3 (n-1)^2 / ((n-2)(n-3)), m4 / m2^2 = s4 / s2^2.
    kurtosis =
      s2 === 0n
        ? 0
        : ratio(
            N * (N + 1n) * (N - 1n) * s4 - 3n * (N - 1n) * (N - 1n) * s2 * s2,
            (N - 2n) * (N - 3n) * s2 * s2,
          );
  }
  return { mean, variance, sd, skewness, kurtosis };
}
