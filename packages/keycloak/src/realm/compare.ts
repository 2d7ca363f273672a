import type { KeycloakJson } from '../apis/keycloak/representations.js';

// Keycloak answers with its own types and order: numbers and booleans of maps as strings ("587", "true"),
// lists in no particular order, maps with keys it added itself. A desired value is compared with what
// Keycloak says in those terms.

type JsonObject = Readonly<Record<string, KeycloakJson | undefined>>;

export function isJsonObject(value: KeycloakJson | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A scalar as text, so 587 and "587", true and "true" compare equal. */
const asText = (value: KeycloakJson | undefined): string | undefined =>
  value === undefined || value === null || typeof value === 'object' ? undefined : String(value);

function sameList(desired: readonly KeycloakJson[], observed: KeycloakJson | undefined, asSet: boolean): boolean {
  if (!Array.isArray(observed)) return desired.length === 0 && (observed === undefined || observed === null);
  const items = observed as readonly KeycloakJson[];
  if (items.length !== desired.length) return false;
  if (!asSet) return desired.every((item, index) => sameValue(item, items[index]));
  const texts = new Set(items.map(asText));
  return desired.every((item) => texts.has(asText(item)));
}

/**
 * Whether Keycloak's `observed` value says what `desired` says. Maps are compared on the keys `desired`
 * states (Keycloak merges or adds the others); lists in order unless `asSet`.
 */
export function sameValue(desired: KeycloakJson, observed: KeycloakJson | undefined, asSet = false): boolean {
  if (Array.isArray(desired)) return sameList(desired as readonly KeycloakJson[], observed, asSet);
  if (isJsonObject(desired)) {
    if (!isJsonObject(observed)) return Object.keys(desired).length === 0;
    return Object.entries(desired).every(([key, value]) => value === undefined || sameValue(value, observed[key]));
  }
  return asText(desired) === asText(observed);
}

/** The keys of `desired` whose values Keycloak's `observed` map does not have. */
export function differingKeys(desired: Readonly<Record<string, string>>, observed: KeycloakJson | undefined): string[] {
  const current = isJsonObject(observed) ? observed : {};
  return Object.entries(desired).filter(([key, value]) => asText(current[key]) !== value).map(([key]) => key);
}
