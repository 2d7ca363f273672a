// Runtime overhead of a no-op reconcile and work-queue throughput, in process (no I/O).
// Target: at least 20,000 no-op reconciles per second on one core; overhead per reconcile under 50 µs.
import { performance } from 'node:perf_hooks';
import { PlanBuilder, coreTypes, InMemoryWorld } from '@keyward/kernel';
import { type KubernetesAction } from '@keyward/kernel/plan';
import { WorkQueue } from '@keyward/runtime/controller';

const KEYS = 20_000;

async function queueThroughput(concurrency: number): Promise<number> {
  const queue = new WorkQueue();
  let done = 0;
  const finished = new Promise<void>((resolve) => {
    queue.start(() => {
      done += 1;
      if (done === KEYS) resolve();
      return Promise.resolve();
    }, { concurrency });
  });
  const started = performance.now();
  for (let i = 0; i < KEYS; i++) queue.add(`ns/object-${String(i)}`);
  await finished;
  const seconds = (performance.now() - started) / 1000;
  await queue.shutdown();
  return KEYS / seconds;
}

async function noopReconcile(): Promise<{ perSecond: number; microsecondsEach: number }> {
  const world = new InMemoryWorld();
  const ref = { type: coreTypes.configMap, namespace: 'ns', name: 'x' };
  const started = performance.now();
  for (let i = 0; i < KEYS; i++) {
    // What a converged reconcile does: decide nothing changes, run the empty plan.
    const plan = new PlanBuilder<KubernetesAction>();
    if (world.get(ref) !== undefined) plan.add({ kind: 'k8s.delete', ref }, 'never');
    // The real interpreter, with the world's handlers.
    await world.run(plan.build());
  }
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: KEYS / seconds, microsecondsEach: (seconds * 1e6) / KEYS };
}

const reconcile = await noopReconcile();
const result = {
  benchmark: 'runtime-overhead',
  keys: KEYS,
  queueKeysPerSecond: { concurrency1: Math.round(await queueThroughput(1)), concurrency4: Math.round(await queueThroughput(4)) },
  noopReconcilesPerSecond: Math.round(reconcile.perSecond),
  noopReconcileMicroseconds: Number(reconcile.microsecondsEach.toFixed(2)),
  targets: { noopReconcilesPerSecond: 20_000, noopReconcileMicroseconds: 50 },
};
console.log(JSON.stringify(result, null, 2));
