import { httpCall } from './http.js';

/**
 * Whether etcd holds `key` (a storage path such as /registry/secrets/<namespace>/<name>), through etcd's JSON
 * gateway: what the cluster stores, also while kube-apiserver is down. Reads the count only, never a value.
 */
export async function isStored(etcdUrl: string, key: string): Promise<boolean> {
  const response = await httpCall(`${etcdUrl}/v3/kv/range`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: Buffer.from(key).toString('base64'), count_only: true }),
  });
  if (response.status !== 200) throw new Error(`etcd range ${key}: HTTP ${String(response.status)} ${response.body.slice(0, 200)}`);
  // The gateway leaves out fields at their zero value: no "count" means none.
  const { count } = JSON.parse(response.body) as { count?: string };
  return count !== undefined && count !== '0';
}
