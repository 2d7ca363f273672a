import { deepEqual } from '@keyward/kernel/plan';
import type { OperatorConfig, PlanConfig } from './config.js';
import type { OptionSpec, OptionSpecs } from './option-spec.js';
import { moduleOptions } from './options.js';

/**
 * The settings `keyward run` publishes, so that `keyward plan` configures the controllers as the running
 * operator does (a plan with another Keystone URL sees drift that is not there). Values only: the options name
 * Secrets, they never hold their contents.
 */
export const SETTINGS_CONFIGMAP = 'keyward-settings';
export const SETTINGS_KEY = 'settings.json';

export interface PublishedSettings {
  readonly version: string;
  readonly controllers: readonly string[];
  readonly namespaces: readonly string[] | 'all';
  /** Each controller module option's value as the controllers got it; null for none. */
  readonly settings: Readonly<Record<string, unknown>>;
}

/** What a running operator publishes: its module settings, controllers, namespaces and version. */
export function publishedSettings(config: OperatorConfig, version: string, specs: OptionSpecs = moduleOptions): PublishedSettings {
  return {
    version,
    controllers: config.controllers,
    namespaces: config.namespaces,
    settings: Object.fromEntries(Object.keys(specs).map((key) => [key, config[key] ?? null])),
  };
}

/** The ConfigMap that holds them, for a server-side apply. */
export function settingsConfigMap(namespace: string, published: PublishedSettings): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: SETTINGS_CONFIGMAP, namespace, labels: { 'app.kubernetes.io/name': 'keyward' } },
    data: { [SETTINGS_KEY]: `${JSON.stringify(published, null, 2)}\n` },
  };
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStrings = (value: unknown): value is readonly string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** The published settings from the ConfigMap's data, or why they cannot be used. */
export function readPublished(data: unknown): { readonly ok: true; readonly published: PublishedSettings } | { readonly ok: false; readonly problem: string } {
  const text = isRecord(data) ? data[SETTINGS_KEY] : undefined;
  if (typeof text !== 'string') return { ok: false, problem: `it has no ${SETTINGS_KEY}` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, problem: `its ${SETTINGS_KEY} is not JSON` };
  }
  if (!isRecord(parsed) || typeof parsed['version'] !== 'string' || !isStrings(parsed['controllers']) || !isRecord(parsed['settings'])
    || !(parsed['namespaces'] === 'all' || isStrings(parsed['namespaces']))) {
    return { ok: false, problem: `its ${SETTINGS_KEY} is not keyward's settings` };
  }
  return { ok: true, published: { version: parsed['version'], controllers: parsed['controllers'], namespaces: parsed['namespaces'], settings: parsed['settings'] } };
}

/** A setting's value as its flag takes it: the option's own form, a Secret reference as namespace/name, a list comma-separated. */
export function settingText(value: unknown, option?: { format?(value: unknown): string }): string | undefined {
  if (option?.format !== undefined && value !== null && value !== undefined) return option.format(value);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (isStrings(value)) return value.join(',');
  if (isRecord(value) && typeof value['namespace'] === 'string' && typeof value['name'] === 'string') return `${value['namespace']}/${value['name']}`;
  return undefined;
}

/**
 * A published value, if this version reads it as the operator meant it: its text must parse to the same value.
 * null is the operator's "none".
 */
function usable(spec: OptionSpec<unknown>, value: unknown): { readonly ok: true; readonly value: unknown } | { readonly ok: false } {
  if (value === null) return { ok: true, value: undefined };
  const text = settingText(value, spec);
  const parsed = text === undefined ? undefined : spec.parse(text);
  return parsed?.ok === true && deepEqual(parsed.value, value) ? { ok: true, value } : { ok: false };
}

/** Where the operator's settings were looked for, and what was found. */
export type Lookup =
  | { readonly kind: 'found'; readonly namespace: string; readonly published: PublishedSettings }
  | { readonly kind: 'none'; readonly namespace: string; readonly reason: string };

/** Given here (flag or variable), the running operator's, or this command's default. */
export type SettingOrigin = 'given' | 'operator' | 'default';

export interface PlanSettings {
  readonly lookup: Lookup;
  readonly origins: Readonly<Record<string, SettingOrigin>>;
  /** Published settings this version cannot read: it plans with its own values of them. */
  readonly unreadable: readonly string[];
}

/**
 * The plan's configuration with the running operator's settings: each module setting not given by flag or
 * variable takes the published value; given ones win. Without published settings, the configuration is as parsed.
 */
export function withOperatorSettings(config: PlanConfig, lookup: Lookup, specs: OptionSpecs = moduleOptions): { readonly config: PlanConfig; readonly settings: PlanSettings } {
  const taken: Record<string, unknown> = {};
  const origins: Record<string, SettingOrigin> = {};
  const unreadable: string[] = [];
  for (const [key, spec] of Object.entries(specs)) {
    if (config.explicitSettings.includes(key)) {
      origins[key] = 'given';
      continue;
    }
    origins[key] = 'default';
    if (lookup.kind !== 'found' || !(key in lookup.published.settings)) continue;
    const published = usable(spec, lookup.published.settings[key]);
    if (!published.ok) {
      unreadable.push(key);
      continue;
    }
    taken[key] = published.value;
    origins[key] = 'operator';
  }
  return { config: Object.freeze({ ...config, ...taken }), settings: { lookup, origins, unreadable } };
}
