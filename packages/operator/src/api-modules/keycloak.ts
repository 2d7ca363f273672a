import { parsePositiveInteger } from '@keyward/kernel/model';
import { FairRateLimitMetrics, httpRequestMetrics } from '@keyward/runtime/controller';
import type { FairRateLimits } from '@keyward/runtime/io';
import { keycloakApi } from '@keyward/keycloak/api';
import { defaultKeycloakRateLimits, keycloakRateLimitNames, keycloakRateLimiter, keycloakRuntime } from '@keyward/keycloak/io';
import { parsePositiveNumber } from '../values.js';
import { defineApiModule, numberSetting, type ApiOption, type Settings } from './module.js';

type Limit = 'namespace' | 'global' | 'token';
const LIMITS: readonly Limit[] = ['namespace', 'global', 'token'];
/** The limiter's bucket of each limit: Keycloak's tenants are namespaces. */
const BUCKET = { namespace: 'tenant', global: 'global', token: 'token' } as const satisfies Record<Limit, keyof FairRateLimits>;

/** The settings of a limit: `keycloakTokenRate`, `keycloakTokenBurst`. */
const settingKeys = (limit: Limit) => {
  const name = `keycloak${limit.charAt(0).toUpperCase()}${limit.slice(1)}`;
  return { rate: `${name}Rate`, burst: `${name}Burst` };
};

/** The option of one limit's rate and of its burst. */
function limitOptions(limit: Limit, what: string, inValues: string): { readonly rate: ApiOption<number>; readonly burst: ApiOption<number> } {
  const { ratePerSecond, burst } = defaultKeycloakRateLimits[BUCKET[limit]];
  return {
    rate: {
      flags: `--keycloak-${limit}-rate <per-second>`,
      env: `KEYWARD_KEYCLOAK_${limit.toUpperCase()}_RATE`,
      description: `Keycloak ${what} per second at most`,
      default: ratePerSecond,
      defaultText: String(ratePerSecond),
      parse: parsePositiveNumber,
      helm: { path: `keycloak.rateLimits.${limit}Rate`, type: 'number', comment: `client-side limit of ${inValues} per second. Empty: ${String(ratePerSecond)}.` },
    },
    burst: {
      flags: `--keycloak-${limit}-burst <n>`,
      env: `KEYWARD_KEYCLOAK_${limit.toUpperCase()}_BURST`,
      description: `Keycloak ${what} at once above that rate after a quiet spell`,
      default: burst,
      defaultText: String(burst),
      parse: parsePositiveInteger,
      helm: { path: `keycloak.rateLimits.${limit}Burst`, type: 'number', comment: `${inValues} at once above that rate after a quiet spell. Empty: ${String(burst)}.` },
    },
  };
}

/**
 * How hard the operator may press Keycloak: every admin request takes a token from its object's namespace's
 * bucket and from the global one; token requests have their own.
 */
const limitsOptions: Readonly<Record<Limit, ReturnType<typeof limitOptions>>> = {
  namespace: limitOptions('namespace', 'admin requests for the objects of one namespace', 'Keycloak admin requests for the objects of one namespace'),
  global: limitOptions('global', 'admin requests in all', 'all Keycloak admin requests together'),
  token: limitOptions('token', 'token requests', 'Keycloak token requests'),
};

/** The Keycloak rate limits the settings state. */
export function keycloakRateLimits(settings: Settings): FairRateLimits {
  const limit = (name: Limit) => {
    const keys = settingKeys(name);
    return { ratePerSecond: numberSetting(settings, keys.rate, limitsOptions[name].rate), burst: numberSetting(settings, keys.burst, limitsOptions[name].burst) };
  };
  return { ...defaultKeycloakRateLimits, tenant: limit('namespace'), global: limit('global'), token: limit('token') };
}

/** Keycloak: every admin request through one fair rate limiter, whose waits and budgets are metrics. */
export const keycloakApiModule = defineApiModule({
  api: keycloakApi,
  options: Object.fromEntries(LIMITS.flatMap((limit) => [[settingKeys(limit).rate, limitsOptions[limit].rate], [settingKeys(limit).burst, limitsOptions[limit].burst]])),
  runtime: ({ kube, metrics }, settings) => {
    const limiterMetrics = metrics === undefined ? undefined : new FairRateLimitMetrics(metrics.registry, keycloakRateLimitNames);
    const limiter = keycloakRateLimiter(keycloakRateLimits(settings), limiterMetrics === undefined ? {} : { observer: limiterMetrics.observer });
    limiterMetrics?.watchBudgets(limiter);
    return keycloakRuntime({ kube, limiter, ...(metrics === undefined ? {} : { observer: httpRequestMetrics(metrics) }) });
  },
});
