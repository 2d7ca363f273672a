// CRD lists whose items are told apart by one key field: server-side apply merges them item by item, and the API
// server refuses a key given twice.

export interface ListMapOptions {
  readonly maxItems?: number;
  readonly description?: string;
}

/** A list of `items` keyed by the field `key`. */
export function listMapOf(key: string, items: object, options: ListMapOptions = {}): Record<string, unknown> {
  return {
    type: 'array',
    ...(options.maxItems === undefined ? {} : { maxItems: options.maxItems }),
    ...(options.description === undefined ? {} : { description: options.description }),
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': [key],
    items,
  };
}
