import type { ConfigOption } from '@keyward/kernel/plan';
import type { ModuleSettings } from '../config.js';
import { longFlag } from '../option-spec.js';
import { settingText, type PlanSettings, type SettingOrigin } from '../operator-settings.js';

/** A setting a plan shows: an option of a selected controller and the value it plans with. */
export interface ShownSetting {
  readonly key: string;
  readonly option: Pick<ConfigOption<unknown>, 'flags' | 'negation' | 'format'>;
}

/** The options of the selected controllers' modules, each once. */
export function shownSettings(modules: readonly { readonly options: Readonly<Record<string, ConfigOption<unknown> | undefined>> }[]): ShownSetting[] {
  const shown = new Map<string, ShownSetting>();
  for (const { options } of modules) {
    for (const [key, option] of Object.entries(options)) if (option !== undefined && !shown.has(key)) shown.set(key, { key, option });
  }
  return [...shown.values()];
}

/** A setting as a flag: `--keystone-url http://...`, `--no-revoke-on-delete`, `--keycloak-url (none)`. */
function asFlag({ key, option }: ShownSetting, config: ModuleSettings): string {
  const value = config[key];
  if (typeof value === 'boolean' && !option.flags.includes('<')) {
    if (value) return longFlag(option);
    return option.negation === undefined ? `${longFlag(option)}=false` : longFlag(option.negation);
  }
  const text = settingText(value, option);
  return `${longFlag(option)} ${text === undefined || text === '' ? '(none)' : text}`;
}

/**
 * One line that says where the controllers' settings come from: the running operator's (and which were given
 * here instead), or that none were found and what the plan uses.
 */
export function settingsLine(settings: PlanSettings, shown: readonly ShownSetting[], config: ModuleSettings): string {
  const { lookup, origins, unreadable } = settings;
  const flags = (origin: SettingOrigin | 'unreadable'): string[] => shown
    .filter(({ key }) => (unreadable.includes(key) ? 'unreadable' : origins[key] ?? 'default') === origin)
    .map((setting) => asFlag(setting, config));
  if (lookup.kind === 'none') {
    const all = shown.map((setting) => asFlag(setting, config));
    return `no settings of a running operator found in ${lookup.namespace} (${lookup.reason}); planning with ${all.length === 0 ? 'the defaults' : all.join(', ')}`;
  }
  const parts = [
    `settings of the running operator in ${lookup.namespace} (keyward ${lookup.published.version}): ${flags('operator').join(', ') || 'none taken'}`,
    ...(flags('given').length === 0 ? [] : [`given here: ${flags('given').join(', ')}`]),
    ...(flags('default').length === 0 ? [] : [`not published, this keyward's defaults: ${flags('default').join(', ')}`]),
    ...(flags('unreadable').length === 0 ? [] : [`published in a form this keyward cannot read, so its own: ${flags('unreadable').join(', ')}`]),
  ];
  return parts.join('; ');
}

/** The same for `-o json`: where the settings were looked for, what was found, and each value with its origin. */
export function settingsJson(settings: PlanSettings, shown: readonly ShownSetting[], config: ModuleSettings): Record<string, unknown> {
  const { lookup, origins, unreadable } = settings;
  const values = Object.fromEntries(shown.map(({ key }) => [key, { value: config[key] ?? null, from: origins[key] ?? 'default' }]));
  if (lookup.kind === 'none') return { operatorNamespace: lookup.namespace, operator: null, reason: lookup.reason, values };
  const { version, controllers, namespaces } = lookup.published;
  return { operatorNamespace: lookup.namespace, operator: { version, controllers, namespaces }, values, ...(unreadable.length === 0 ? {} : { unreadable }) };
}
