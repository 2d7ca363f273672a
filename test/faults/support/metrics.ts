// Reads the operator's Prometheus metrics: how many reconciles, by controller and result, it has run so far.
import { createServer } from 'node:net';

/** A loopback port no one listens on now, for the operator's metrics. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => { if (typeof address === 'object' && address !== null) resolve(address.port); else reject(new Error('no port')); });
    });
  });
}

/** Each sample of `metric` in the text format: its labels and value. */
export function samples(text: string, metric: string): { readonly labels: Readonly<Record<string, string>>; readonly value: number }[] {
  const line = new RegExp(`^${metric}(?:\\{(.*)\\})? (\\S+)$`);
  return text.split('\n').flatMap((row) => {
    const match = line.exec(row);
    if (match === null) return [];
    const labels = Object.fromEntries([...(match[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1] ?? '', m[2] ?? '']));
    return [{ labels, value: Number(match[2]) }];
  });
}

/** The metrics text served at `port`. */
export async function scrape(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${String(port)}/metrics`);
  return response.text();
}

/** keyward_reconcile_total by "<controller> <result>". */
export function reconcileCounts(text: string): Map<string, number> {
  return new Map(samples(text, 'keyward_reconcile_total').map((s) => [`${s.labels['controller'] ?? ''} ${s.labels['result'] ?? ''}`, s.value]));
}

/** How many `kind` actions the operator has sent so far (applied, unchanged or failed; not the skipped ones). */
export function actionsSent(text: string, kind: string): number {
  return samples(text, 'keyward_actions_total').filter((s) => s.labels['kind'] === kind && s.labels['outcome'] !== 'skipped').reduce((sum, s) => sum + s.value, 0);
}

/** The keys waiting in every controller's work queue. */
export function queueDepth(text: string): number {
  return samples(text, 'keyward_workqueue_depth').reduce((sum, s) => sum + s.value, 0);
}

/** `after - before` for each key, zeros left out. */
export function difference(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): Record<string, number> {
  const changed = [...after].map(([key, value]): [string, number] => [key, value - (before.get(key) ?? 0)]);
  return Object.fromEntries(changed.filter(([, value]) => value !== 0));
}
