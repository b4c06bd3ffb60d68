/**
 * How many payment starts a process asks of each provider per second (issue 40, the appeal day):
 * a provider's API takes so many requests a second (Stripe: 100 in live mode, 25 in test mode) and
 * answers the rest with an error, which a donor would read as a failed payment. Above a provider's
 * pace (`startsPerSecond`, per process: a site with four workers asks up to four times as much), a
 * start is refused before anything is recorded, and the donor is told to try again in a second.
 */
export class StartPace {
  private readonly windows = new Map<string, { second: number; count: number }>();

  /** Takes a start for `name` in the current second; false when its `perSecond` are taken. */
  take(name: string, perSecond: number, now = Date.now()): boolean {
    const second = Math.floor(now / 1000);
    const w = this.windows.get(name);
    if (!w || w.second !== second) {
      this.windows.set(name, { second, count: 1 });
      return true;
    }
    if (w.count >= perSecond) return false;
    w.count += 1;
    return true;
  }
}

/** This process's pace, shared by every start. */
export const startPace = new StartPace();
