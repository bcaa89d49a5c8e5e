/**
 * The few distribution functions the culling rule needs: upper tails of the standard normal and of Student's t,
 * and their inverses. Written out here (no dependency) because they are short and only the far tail matters:
 * the rule works at tail probabilities around 1e-6, where a crude approximation would be badly wrong.
 */

/** erfc(x) for x ≥ 0 (Numerical Recipes `erfcc`, Chebyshev fit, relative error < 1.2e-7 everywhere). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** P(Z > z) for a standard normal Z. */
export function normalUpperTail(z: number): number {
  return 0.5 * erfc(z / Math.SQRT2);
}

/** log Γ(x), x > 0 (Lanczos, g = 7, n = 9; ~15 significant digits). */
function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const xx = x - 1;
  let a = c[0] as number;
  const t = xx + 7.5;
  for (let i = 1; i < 9; i++) a += (c[i] as number) / (xx + i);
  return 0.5 * Math.log(2 * Math.PI) + (xx + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction of the incomplete beta function (modified Lentz). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 500; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a - 1 + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + 1 + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-15) break;
  }
  return h;
}

/** Regularized incomplete beta I_x(a, b). */
function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(a, b, x)) / a;
  return 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** P(T > t) for Student's t with `df` degrees of freedom; `df = Infinity` is the normal. */
export function tUpperTail(t: number, df: number): number {
  if (!Number.isFinite(df)) return normalUpperTail(t);
  if (t < 0) return 1 - tUpperTail(-t, df);
  return 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/**
 * The t with P(T > t) = p (0 < p < 0.5), by bisection on log t: slow by numeric standards (~200 tail
 * evaluations) but exact to ~1e-12 relative, and the culling rule calls it once per stage.
 */
export function tUpperQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 0.5)) throw new RangeError(`p must be in (0, 0.5), got ${p}`);
  if (!(df > 0)) throw new RangeError(`df must be positive, got ${df}`);
  let lo = Math.log(1e-9);
  let hi = Math.log(1e15);
  for (let i = 0; i < 200 && hi - lo > 1e-13; i++) {
    const mid = (lo + hi) / 2;
    if (tUpperTail(Math.exp(mid), df) > p) lo = mid;
    else hi = mid;
  }
  return Math.exp((lo + hi) / 2);
}
