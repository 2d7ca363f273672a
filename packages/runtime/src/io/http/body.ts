import { Sensitive } from '@keyward/kernel';
import type { HttpRequest } from './types.js';

/** A request body ready to send, and the secrets revealed in it. */
export interface EncodedBody {
  readonly data: string | undefined;
  readonly contentType: string | undefined;
  readonly secrets: readonly Sensitive<unknown>[];
}

/**
 * Serialises the request's JSON or form body, revealing its Sensitive values only here, at the last moment,
 * and collecting them so that errors can mask them. A string body also gets an explicit Content-Length from
 * the HTTP client (some servers, uWSGI among them, cannot read chunked bodies).
 */
export function encodeBody(request: Pick<HttpRequest, 'body' | 'form'>): EncodedBody {
  const secrets: Sensitive<unknown>[] = [];
  if (request.form !== undefined) {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(request.form)) {
      if (value instanceof Sensitive) secrets.push(value);
      form.append(name, value instanceof Sensitive ? value.reveal() : value);
    }
    return { data: form.toString(), contentType: 'application/x-www-form-urlencoded', secrets };
  }
  if (request.body === undefined) return { data: undefined, contentType: undefined, secrets };
  const data = JSON.stringify(request.body, function reveal(this: unknown, key: string, value: unknown): unknown {
    // JSON.stringify has already replaced a Sensitive by its mask (toJSON); its holder still has the original.
    const original = (this as Record<string, unknown>)[key];
    if (!(original instanceof Sensitive)) return value;
    secrets.push(original);
    return original.reveal();
  });
  return { data, contentType: 'application/json', secrets };
}
