/**
 * A small seeded PRNG (sfc32: 128-bit state, passes PractRand to 2^40+) so that a datagen table with a
 * `seed` option produces the same rows on every run. Each field draws from its own stream, seeded from
 * the table seed and the field name, so adding a column does not change the values of the others.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string) {
    // seed the four words from a string hash (cyrb128)
    let h1 = 1779033703, h2 = 3144134277, h3 = 1013904242, h4 = 2773480762;
    for (let i = 0; i < seed.length; i++) {
      const k = seed.charCodeAt(i);
      h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
      h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
      h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
      h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
    }
    h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
    h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
    h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
    h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
    this.a = (h1 ^ h2 ^ h3 ^ h4) >>> 0;
    this.b = (h2 ^ h1) >>> 0;
    this.c = (h3 ^ h1) >>> 0;
    this.d = (h4 ^ h1) >>> 0;
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** A uniform 32-bit unsigned integer. */
  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A uniform double in [0, 1) with 53 random bits. */
  nextDouble(): number {
    return ((this.nextUint32() >>> 5) * 67108864 + (this.nextUint32() >>> 6)) / 9007199254740992;
  }

  /** A uniform integer in [lo, hi] (both safe integers). */
  nextInt(lo: number, hi: number): number {
    const span = hi - lo + 1;
    if (span <= 4294967296) return lo + Math.floor((this.nextUint32() / 4294967296) * span);
    return Math.min(hi, lo + Math.floor(this.nextDouble() * span));
  }

  nextBoolean(): boolean {
    return (this.nextUint32() & 1) === 1;
  }

  /** Lowercase hex characters, as Flink's datagen makes random strings. */
  nextHex(length: number): string {
    let s = "";
    while (s.length < length) s += this.nextUint32().toString(16).padStart(8, "0");
    return s.slice(0, length);
  }

  /** The state, for checkpoints. */
  state(): [number, number, number, number] {
    return [this.a, this.b, this.c, this.d];
  }

  restore(s: readonly number[]): void {
    [this.a, this.b, this.c, this.d] = s as [number, number, number, number];
  }
}
