import type { IniSections } from './ini.js';

/** Keystone's own WSGI pipeline (its keystone-paste.ini), filter by filter, with how each is made. */
export const BASE_FILTERS = [
  ['cors', { use: 'egg:oslo.middleware#cors', oslo_config_project: 'keystone' }],
  ['sizelimit', { use: 'egg:oslo.middleware#sizelimit' }],
  ['http_proxy_to_wsgi', { use: 'egg:oslo.middleware#http_proxy_to_wsgi' }],
  ['osprofiler', { use: 'egg:osprofiler#osprofiler' }],
  ['url_normalize', { use: 'egg:keystone#url_normalize' }],
  ['request_id', { use: 'egg:oslo.middleware#request_id' }],
  ['build_auth_context', { use: 'egg:keystone#build_auth_context' }],
  ['token_auth', { use: 'egg:keystone#token_auth' }],
  ['json_body', { use: 'egg:keystone#json_body' }],
] as const satisfies readonly (readonly [string, Readonly<Record<string, string>>])[];

export const BASE_FILTER_NAMES = ['cors', 'sizelimit', 'http_proxy_to_wsgi', 'osprofiler', 'url_normalize', 'request_id', 'build_auth_context', 'token_auth', 'json_body'] as const;
export const PIPELINE_NAME = 'public_api';
export const APP_NAME = 'public_service';

export interface PipelineMiddleware {
  readonly name: string;
  readonly filterFactory: string;
  readonly position: 'before' | 'after';
  /** A filter of the base pipeline to stand next to; without it, the start (before) or the end (after) of the base filters. */
  readonly filter?: string;
  readonly config?: Readonly<Record<string, string>>;
}

/**
 * The filters in order: each middleware goes before or after its named base filter (or the whole base
 * pipeline), in the order the list gives them, and the app comes last.
 */
export function pipeline(middleware: readonly PipelineMiddleware[]): string[] {
  const base: string[] = BASE_FILTERS.map(([name]) => name);
  const before = new Map<string, string[]>();
  const after = new Map<string, string[]>();
  const head: string[] = [];
  const tail: string[] = [];
  for (const m of middleware) {
    if (m.filter === undefined) (m.position === 'before' ? head : tail).push(m.name);
    else {
      const table = m.position === 'before' ? before : after;
      table.set(m.filter, [...(table.get(m.filter) ?? []), m.name]);
    }
  }
  return [...head, ...base.flatMap((name) => [...(before.get(name) ?? []), name, ...(after.get(name) ?? [])]), ...tail, APP_NAME];
}

/** api-paste.ini: the pipeline, the base filters' and app's factories, and a section per middleware. */
export function apiPasteSections(middleware: readonly PipelineMiddleware[]): IniSections {
  const sections: Record<string, Readonly<Record<string, string>>> = {
    'composite:main': { use: 'egg:Paste#urlmap', '/v3': PIPELINE_NAME, '/': PIPELINE_NAME },
    [`pipeline:${PIPELINE_NAME}`]: { pipeline: pipeline(middleware).join(' ') },
    [`app:${APP_NAME}`]: { use: 'egg:keystone#public_service' },
  };
  for (const [name, factory] of BASE_FILTERS) sections[`filter:${name}`] = factory;
  for (const m of middleware) {
    // The factory is the spec's own field; a `paste.filter_factory` in config cannot replace it.
    const { 'paste.filter_factory': _ignored, ...config } = m.config ?? {};
    sections[`filter:${m.name}`] = { ...config, 'paste.filter_factory': m.filterFactory };
  }
  return sections;
}
