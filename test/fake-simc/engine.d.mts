// Types for the part of the stand-in's engine that TypeScript code reuses (bench/multistage-model.ts).
export class Rng {
  constructor(seed: bigint, stream?: string);
  next32(): number;
  /** Uniform [0, 1). */
  real(): number;
  /** Standard normal. */
  gauss(): number;
}
