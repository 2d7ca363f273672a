// Which objects may take over a realm or client that no object owns (made by hand or by another tool). The
// operator names them by namespace, optionally narrowed to one realm: an operator-wide switch would let any
// tenant namespace take over any team's hand-made realm, first come first served.
import { accept, commaList, isDns1123Label, parseBoolean, reject, type Parsed } from '@keyward/kernel/model';
import { REALM_NAME_PATTERN } from './realm/spec.js';

/** `namespace` (any realm) or `namespace/realm` (that realm only). */
export type AdoptionScope = string;

/** The flag that scopes adoption, for messages. */
export const ADOPT_FLAG = '--keycloak-adopt-unowned-namespaces';

const realmName = new RegExp(REALM_NAME_PATTERN);

function validScope(entry: string): boolean {
  const [namespace = '', realm, ...rest] = entry.split('/');
  return rest.length === 0 && isDns1123Label(namespace) && (realm === undefined || realmName.test(realm));
}

/** The option's value: comma-separated `namespace` or `namespace/realm` entries. */
export function parseAdoptionScopes(raw: string): Parsed<readonly AdoptionScope[]> {
  const entries = commaList(raw);
  const bad = entries.find((entry) => !validScope(entry));
  return bad === undefined ? accept(entries) : reject(`has "${bad}", which is not namespace or namespace/realm`);
}

/** Whether an object in `namespace` may take over an unowned realm `realm` or a client in it. */
export function mayAdopt(scopes: readonly AdoptionScope[], namespace: string, realm: string): boolean {
  return scopes.includes(namespace) || scopes.includes(`${namespace}/${realm}`);
}

/** The old operator-wide switch: refused when on, naming the flag that replaces it. */
export function parseRetiredAdoptSwitch(raw: string): Parsed<false> {
  const parsed = parseBoolean(raw);
  if (!parsed.ok) return parsed;
  return parsed.value ? reject(`is no longer taken: adoption is not operator-wide; name the namespaces (or namespace/realm) that may adopt with ${ADOPT_FLAG}`) : accept(false);
}
