/** 18-digit ids (notes §1) for jobs and artifacts: unique per process, increasing, shaped like the real ones. */
let next = 519_253_542_012_420_096n + BigInt(Math.floor(Math.random() * 1e9)) * 1000n;

export function newId(): string {
  next += BigInt(1 + Math.floor(Math.random() * 997));
  return next.toString();
}

/** A deterministic PRNG (mulberry32) seeded from a string, so a job's numbers repeat across fetches. */
export function seeded(seed: string): () => number {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
