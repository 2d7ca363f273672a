// Requests whose JSON a JavaScript value cannot express (2^53+1, 1e400 written as such), and whose error
// answers are read whole: the fuzz scenario checks what the API server says about each rejected field.
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { request as httpRequest } from 'node:http';
import type { KubeConfig } from '@kubernetes/client-node';

/** A number as it is written in the request's JSON text; JSON.parse would round it (or make it Infinity). */
export class RawNumber {
  constructor(readonly text: string) {}
}

/** `value` as JSON text, each RawNumber written as its text. */
export function toJson(value: unknown): string {
  const raw: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (!(item instanceof RawNumber)) return item;
    raw.push(item.text);
    return `\u0000raw-number-${String(raw.length - 1)}\u0000`;
  });
  return text.replace(/"\\u0000raw-number-(\d+)\\u0000"/g, (_match, index: string) => raw[Number(index)] ?? 'null');
}

export interface RawAnswer {
  readonly status: number;
  /** The parsed body; for an error, the API server's Status object. */
  readonly body: unknown;
}

/** Sends `json` as is to the API server of `config`; any HTTP status is an answer, not an error. */
export async function sendJson(config: KubeConfig, method: 'POST' | 'PATCH', path: string, json: string, contentType = 'application/json'): Promise<RawAnswer> {
  const cluster = config.getCurrentCluster();
  if (cluster === null) throw new Error('the kubeconfig has no current cluster');
  const url = new URL(path, cluster.server);
  const options: RequestOptions = {
    method,
    headers: { accept: 'application/json', 'content-type': contentType, 'content-length': String(Buffer.byteLength(json)) },
    timeout: 30_000,
  };
  await config.applyToHTTPSOptions(options);
  const requester = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = requester(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => { resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }); });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(json);
  });
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status, body };
}
