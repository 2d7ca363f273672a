import { Fifo } from '../interpreter/rate/fifo.js';

/**
 * Keys waiting for a worker, grouped in lanes (a namespace, say): each lane keeps its keys in order, and
 * lanes with keys take turns, so one lane's backlog cannot hold back another's keys. With one lane it is a
 * plain first-in first-out queue. Every operation is O(1).
 */
export class Lanes<K> {
  readonly #laneOf: (key: K) => string;
  readonly #lanes = new Map<string, Fifo<K>>();
  /** The lanes that hold keys, in the order they are served next. */
  #turns = new Fifo<string>();
  #size = 0;

  constructor(laneOf: (key: K) => string) {
    this.#laneOf = laneOf;
  }

  get size(): number {
    return this.#size;
  }

  push(key: K): void {
    const lane = this.#laneOf(key);
    let keys = this.#lanes.get(lane);
    if (keys === undefined) {
      keys = new Fifo<K>();
      this.#lanes.set(lane, keys);
      this.#turns.push(lane);
    }
    keys.push(key);
    this.#size += 1;
  }

  /** The first key of the lane whose turn it is; the lane then goes to the back of the turns. */
  take(): K | undefined {
    const lane = this.#turns.shift();
    if (lane === undefined) return undefined;
    const keys = this.#lanes.get(lane);
    const key = keys?.shift();
    if (keys === undefined || key === undefined) return undefined;
    this.#size -= 1;
    if (keys.size > 0) this.#turns.push(lane);
    else this.#lanes.delete(lane);
    return key;
  }

  clear(): void {
    this.#lanes.clear();
    this.#turns = new Fifo<string>();
    this.#size = 0;
  }
}
