/** A first-in first-out queue with O(1) push and shift (Array#shift copies the whole array). */
export class Fifo<T> {
  #items: T[] = [];
  #head = 0;

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  peek(): T | undefined {
    return this.#items[this.#head];
  }

  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head];
    this.#head += 1;
    // Drop the consumed prefix once the queue is empty or the prefix is most of the array, so memory
    // follows the live items.
    if (this.#head === this.#items.length || (this.#head >= 1024 && this.#head * 2 >= this.#items.length)) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }
}
