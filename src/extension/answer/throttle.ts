// A streamed reply reaches the cell at a bounded rate: tokens arrive far faster than a notebook can
// re-render, so `mark()` only notes that something changed and `flush` runs at most once per interval,
// one at a time, always with the latest state. The first change is flushed as it arrives (once the
// current task's events are in, not after a timer): the first word shows when the model sends it.
// No vscode import: the benchmark drives it under Node.

/** A streamed reply reaches the cell at most this often (10 updates a second). */
export const UPDATE_INTERVAL_MS = 100;

export class UpdateThrottle {
  /** How many times `flush` ran. */
  updates = 0;
  private dirty = false;
  private done = false;
  private last = -Infinity;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** A flush is due now (the first one, on a microtask rather than a timer). */
  private due = false;
  private inflight: Promise<void> = Promise.resolve();

  constructor(
    private readonly flush: () => void | PromiseLike<void>,
    readonly intervalMs = 100,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The state changed: it is flushed once the interval since the last flush (and that flush) is over. */
  mark(): void {
    this.dirty = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.due || this.done) return;
    if (this.last === -Infinity) {
      this.due = true;
      queueMicrotask(() => void this.run());
    } else this.timer = setTimeout(() => void this.run(), Math.max(0, this.last + this.intervalMs - this.now()));
  }

  private async run(): Promise<void> {
    await this.inflight;
    this.timer = undefined;
    this.due = false;
    if (!this.dirty || this.done) return;
    this.dirty = false;
    this.last = this.now();
    this.updates++;
    this.inflight = Promise.resolve(this.flush()).then(undefined, () => undefined);
    await this.inflight;
    if (this.dirty) this.schedule();
  }

  /** No more flushes; resolves once a flush under way has finished (what follows lands after it). */
  async finish(): Promise<void> {
    this.done = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.inflight;
  }
}
