// Requests the API server itself has counted (its apiserver_request_total metric): unlike a client-side
// count, it sees every client, including watches restarted and informers of other processes.
import { httpCall, type EnvironmentInfo } from '@keyward/test-env';
import { difference, sumOfVerbs, type Counts } from './counts.js';

type Cluster = EnvironmentInfo['kubernetes'];

const WRITE_VERBS = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'APPLY']);
const READ_VERBS = new Set(['GET', 'LIST']);

function labelsOf(line: string): Map<string, string> {
  const labels = line.slice(line.indexOf('{') + 1, line.lastIndexOf('}'));
  return new Map(Array.from(labels.matchAll(/(\w+)="([^"]*)"/g), (match) => [match[1] ?? '', match[2] ?? '']));
}

/** Requests for `resources` (plural names) counted so far, keyed "<VERB> <resource>[/<subresource>]". */
export async function apiServerRequests(cluster: Cluster, resources: readonly string[]): Promise<Counts> {
  const metrics = await httpCall(`${cluster.server}/metrics`, { headers: { authorization: `Bearer ${cluster.token}` }, ca: cluster.caPem, timeoutMs: 30_000 });
  const counts: Record<string, number> = {};
  for (const line of metrics.body.split('\n')) {
    if (!line.startsWith('apiserver_request_total{')) continue;
    const labels = labelsOf(line);
    const resource = labels.get('resource') ?? '';
    if (!resources.includes(resource)) continue;
    const subresource = labels.get('subresource') ?? '';
    const key = `${labels.get('verb') ?? '?'} ${resource}${subresource === '' ? '' : `/${subresource}`}`;
    counts[key] = (counts[key] ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return counts;
}

export interface ApiServerRequests {
  readonly writes: number;
  readonly reads: number;
  readonly byRequest: Counts;
}

/**
 * Requests for `resources` while `work` runs, plus `lingerMs` after it for requests still on their way.
 * Watches count as neither reads nor writes: the server counts one when it ends, whenever that is.
 */
export async function requestsDuring<T>(cluster: Cluster, resources: readonly string[], work: () => Promise<T>, lingerMs = 1_000): Promise<{ result: T; requests: ApiServerRequests }> {
  const before = await apiServerRequests(cluster, resources);
  const result = await work();
  await new Promise((resolve) => setTimeout(resolve, lingerMs));
  const during = difference(await apiServerRequests(cluster, resources), before);
  return { result, requests: { writes: sumOfVerbs(during, WRITE_VERBS), reads: sumOfVerbs(during, READ_VERBS), byRequest: during } };
}
