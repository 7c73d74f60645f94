// A token bucket (ADR 0224): holds up to `perMinute` requests, refilled continuously at perMinute/60 a second, so a
// client may burst a minute's worth and then goes at the steady rate. Pure: the caller passes the time.
export class TokenBucket {
  private readonly perMinute: number;
  private readonly perMs: number;
  private level: number;
  private at: number;

  constructor(perMinute: number, now: number) {
    this.perMinute = perMinute;
    this.perMs = perMinute / 60_000;
    this.level = perMinute;
    this.at = now;
  }

  /** Takes one request's worth and returns 0, or takes nothing and returns the whole seconds until one is there. */
  take(now: number): number {
    this.level = Math.min(this.perMinute, this.level + Math.max(0, now - this.at) * this.perMs);
    this.at = now;
    if (this.level >= 1) {
      this.level -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - this.level) / this.perMs / 1000));
  }
}
