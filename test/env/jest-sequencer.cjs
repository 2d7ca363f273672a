// The order jest hands test files to its workers: longest first, so that no long file starts last and leaves
// the other workers idle at the end, and files that need the same machine-wide resource (see
// holdForThisFile) spread out so that one does not wait for the other while it holds a worker.
//
// Durations come from jest's cache of the last run; a file without one counts with the cost it states in a
// comment line `// jest-cost: N s` (a fresh CI machine has no cache, and jest's fallback, file size, would
// start the costliest files, short ones that start environments of their own, last), else as nothing, after
// the others by size. A file names the resource it holds in a line `// jest-exclusive: NAME`. Files that
// failed last time still come first.
const { readFileSync, statSync } = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

const COST = /^\/\/ jest-cost: (\d+) s\b/m;
const EXCLUSIVE = /^\/\/ jest-exclusive: (.+)$/m;

class LongestFirst extends Sequencer {
  constructor(options) {
    super(options);
    this.workers = Math.max(1, options?.globalConfig?.maxWorkers ?? 1);
  }

  time(test) {
    const cached = super.time(test);
    if (cached !== undefined) return cached;
    const stated = COST.exec(readFileSync(test.path, 'utf8'));
    return stated === null ? undefined : Number(stated[1]) * 1000;
  }

  sort(tests) {
    const facts = new Map(
      tests.map((test) => [
        test,
        {
          failed: this.hasFailed(test),
          ms: this.time(test) ?? 0,
          size: statSync(test.path).size,
          exclusive: EXCLUSIVE.exec(readFileSync(test.path, 'utf8'))?.[1].trim(),
        },
      ]),
    );
    const byCost = [...tests].sort((a, b) => {
      const fa = facts.get(a);
      const fb = facts.get(b);
      if (fa.failed !== fb.failed) return fa.failed ? -1 : 1;
      return fb.ms - fa.ms || fb.size - fa.size;
    });
    return this.spread(byCost, facts);
  }

  /**
   * Plays jest's dispatch through with the expected durations (each file to the first free worker) and, when
   * the next file would need a resource a running file holds, hands out the first one that does not instead.
   */
  spread(queue, facts) {
    const order = [];
    const running = []; // { endMs, exclusive }
    let nowMs = 0;
    const pending = [...queue];
    while (pending.length > 0) {
      if (running.length === this.workers) {
        running.sort((a, b) => a.endMs - b.endMs);
        nowMs = running.shift().endMs;
      }
      const held = new Set(running.map((r) => r.exclusive).filter((name) => name !== undefined));
      let index = pending.findIndex((test) => !held.has(facts.get(test).exclusive));
      if (index === -1) {
        if (running.length > 0) {
          running.sort((a, b) => a.endMs - b.endMs);
          nowMs = running.shift().endMs;
          continue;
        }
        index = 0;
      }
      const [next] = pending.splice(index, 1);
      const fact = facts.get(next);
      order.push(next);
      running.push({ endMs: nowMs + fact.ms, exclusive: fact.exclusive });
    }
    return order;
  }
}

module.exports = LongestFirst;
