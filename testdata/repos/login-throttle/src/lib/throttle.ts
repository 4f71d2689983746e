// A token bucket: each key may spend `burst` tokens at once, and gets
// `perSecond` back every second.
export interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class Throttle {
  private buckets = new Map<string, Bucket>();

  constructor(private perSecond: number, private burst: number) {}

  // take spends one token of key's bucket, and says whether there was one.
  take(key: string, now: number = Date.now()): boolean {
    const b = this.buckets.get(key) ?? { tokens: this.burst, updatedAt: now };
    const refill = ((now - b.updatedAt) / 1000) * this.perSecond;
    b.tokens = Math.min(this.burst, b.tokens + refill);
    b.updatedAt = now;
    if (b.tokens < 1) {
      this.buckets.set(key, b);
      return false;
    }
    b.tokens -= 1;
    this.buckets.set(key, b);
    return true;
  }
}
