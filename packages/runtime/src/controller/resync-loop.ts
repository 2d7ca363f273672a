/** A participant of a resync loop: a controller, whose keys it lists and enqueues. */
export interface ResyncMember {
  /** The keys to check in the round that begins now. */
  keys(): readonly string[];
  /** Has one key checked again (enqueues it). */
  resync(key: string): void;
}

export interface ResyncLoopOptions {
  /** Every key is checked once per period. */
  readonly periodMs: number;
  /** Uniform in [0, 1); Math.random by default. */
  readonly random?: () => number;
  /** Milliseconds; Date.now by default. */
  readonly now?: () => number;
}

interface Due {
  readonly member: ResyncMember;
  readonly key: string;
  readonly at: number;
}

/**
 * Checks every key of its members again once per period, with one timer for all of them. Each round lists the
 * keys and gives the i-th of n the slot [i, i+1) × period/n, at a random moment within it: the checks are
 * spread evenly over the period (no burst of every object at once against a shared server) and move from
 * round to round. The first round begins one period after the first member joins, since starting reconciles
 * every object anyway. Without members it holds no timer.
 */
export class ResyncLoop {
  readonly #periodMs: number;
  readonly #random: () => number;
  readonly #now: () => number;
  readonly #members = new Set<ResyncMember>();
  #round: readonly Due[] = [];
  #next = 0;
  #roundEndsAt = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: ResyncLoopOptions) {
    if (!(options.periodMs > 0)) throw new Error(`a resync loop needs a period above 0 ms, not ${String(options.periodMs)}`);
    this.#periodMs = options.periodMs;
    this.#random = options.random ?? Math.random;
    this.#now = options.now ?? Date.now;
  }

  get periodMs(): number {
    return this.#periodMs;
  }

  /** Adds a member; its keys are checked from the next round on. Returns what removes it again. */
  join(member: ResyncMember): () => void {
    this.#members.add(member);
    if (this.#timer === undefined) {
      this.#roundEndsAt = this.#now() + this.#periodMs;
      this.#round = [];
      this.#next = 0;
      this.#arm();
    }
    return () => { this.#leave(member); };
  }

  /** Ends the loop: no timer, no members. */
  stop(): void {
    this.#members.clear();
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#round = [];
  }

  #leave(member: ResyncMember): void {
    this.#members.delete(member);
    if (this.#members.size === 0) this.stop();
  }

  #beginRound(startsAt: number): void {
    const keys = [...this.#members].flatMap((member) => member.keys().map((key) => ({ member, key })));
    const slotMs = this.#periodMs / Math.max(keys.length, 1);
    this.#round = keys.map(({ member, key }, index) => ({ member, key, at: startsAt + (index + this.#random()) * slotMs }));
    this.#next = 0;
    this.#roundEndsAt = startsAt + this.#periodMs;
  }

  /** The timer: checks what is due, begins the next round when this one is over, and waits for what follows. */
  #tick(): void {
    this.#timer = undefined;
    const now = this.#now();
    while (this.#next < this.#round.length && (this.#round[this.#next]?.at ?? Infinity) <= now) {
      const due = this.#round[this.#next++];
      // A member that left during the round is not asked any more.
      if (due !== undefined && this.#members.has(due.member)) due.member.resync(due.key);
    }
    if (this.#next >= this.#round.length && now >= this.#roundEndsAt) this.#beginRound(this.#roundEndsAt);
    this.#arm();
  }

  #arm(): void {
    if (this.#members.size === 0) return;
    const at = this.#round[this.#next]?.at ?? this.#roundEndsAt;
    this.#timer = setTimeout(() => { this.#tick(); }, Math.max(0, at - this.#now()));
    this.#timer.unref();
  }
}

/**
 * The resync loops of one process (or one term of leadership): one per period, shared by every controller
 * that spreads its resync over that period.
 */
export class ResyncLoops {
  readonly #loops = new Map<number, ResyncLoop>();
  readonly #options: Omit<ResyncLoopOptions, 'periodMs'>;

  constructor(options: Omit<ResyncLoopOptions, 'periodMs'> = {}) {
    this.#options = options;
  }

  loop(periodMs: number): ResyncLoop {
    let loop = this.#loops.get(periodMs);
    if (loop === undefined) {
      loop = new ResyncLoop({ ...this.#options, periodMs });
      this.#loops.set(periodMs, loop);
    }
    return loop;
  }

  stop(): void {
    for (const loop of this.#loops.values()) loop.stop();
  }
}
