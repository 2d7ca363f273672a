import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

/** What `kubectl get` shows: the API server's Table rendering of a collection's printer columns. */
export interface PrintedTable {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
}

/**
 * The Table the API server renders for `path` (a collection URL, with a field selector to pick objects), the
 * cells as kubectl prints them: the server turns a `date` column into an age, `<invalid>` for a future time.
 */
export async function printedTable(config: KubeConfig, path: string): Promise<PrintedTable> {
  const server = config.getCurrentCluster()?.server;
  if (server === undefined) throw new Error('the kubeconfig has no current cluster');
  const options: RequestOptions = { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } };
  await config.applyToHTTPSOptions(options);
  const text = await new Promise<string>((resolve, reject) => {
    const call = httpsRequest(new URL(path, server), options, (response) => {
      let data = '';
      response.on('data', (chunk: Buffer) => (data += chunk.toString()));
      response.on('end', () => {
        resolve(data);
      });
    });
    call.on('error', reject);
    call.end();
  });
  const parsed = JSON.parse(text) as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
  return { columns: parsed.columnDefinitions.map((column) => column.name), rows: parsed.rows.map((row) => row.cells) };
}
