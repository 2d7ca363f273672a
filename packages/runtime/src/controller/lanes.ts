import { Fifo } from '../io/rate/fifo.js';

/**
 * Keys waiting for a worker, grouped in lanes (a namespace, say): each lane keeps its keys in order, and
 * lanes with keys take turns, so one lane's backlog cannot hold back another's keys. A lane may also be
 * capped: with `maxTakenPerLane` keys of it taken and not yet released, it sits out its turns until one is
 * released. With one lane and no cap it is a plain first-in first-out queue. Every operation is O(1).
 */
export class Lanes<K> {
  readonly #laneOf: (key: K) => string;
  readonly #maxTaken: number;
  readonly #lanes = new Map<string, Fifo<K>>();
  /** Keys taken and not yet released, by lane (absent: none). */
  readonly #taken = new Map<string, number>();
  /** The lanes that hold keys and are under their cap, in the order they are served next. */
  #turns = new Fifo<string>();
  #size = 0;

  constructor(laneOf: (key: K) => string, maxTakenPerLane = Infinity) {
    this.#laneOf = laneOf;
    this.#maxTaken = maxTakenPerLane;
  }

  /** Keys waiting, capped lanes' included. */
  get size(): number {
    return this.#size;
  }

  push(key: K): void {
    const lane = this.#laneOf(key);
    let keys = this.#lanes.get(lane);
    if (keys === undefined) {
      keys = new Fifo<K>();
      this.#lanes.set(lane, keys);
      if (this.#underCap(lane)) this.#turns.push(lane);
    }
    keys.push(key);
    this.#size += 1;
  }

  /**
   * The first key of the lane whose turn it is; the lane then goes to the back of the turns (unless that
   * key brought it to its cap). Undefined when no lane under its cap has keys.
   */
  take(): K | undefined {
    const lane = this.#turns.shift();
    if (lane === undefined) return undefined;
    const keys = this.#lanes.get(lane);
    const key = keys?.shift();
    if (keys === undefined || key === undefined) return undefined;
    this.#size -= 1;
    this.#taken.set(lane, (this.#taken.get(lane) ?? 0) + 1);
    if (keys.size === 0) this.#lanes.delete(lane);
    else if (this.#underCap(lane)) this.#turns.push(lane);
    return key;
  }

  /** A key `take` gave out is done with: its lane may take turns again. */
  release(key: K): void {
    const lane = this.#laneOf(key);
    const taken = this.#taken.get(lane) ?? 0;
    if (taken <= 1) this.#taken.delete(lane);
    else this.#taken.set(lane, taken - 1);
    // At its cap the lane was out of the turns; with keys waiting it rejoins them at the back.
    if (taken === this.#maxTaken && this.#lanes.has(lane)) this.#turns.push(lane);
  }

  /** Drops the waiting keys; keys taken are still to be released. */
  clear(): void {
    this.#lanes.clear();
    this.#turns = new Fifo<string>();
    this.#size = 0;
  }

  #underCap(lane: string): boolean {
    return (this.#taken.get(lane) ?? 0) < this.#maxTaken;
  }
}
