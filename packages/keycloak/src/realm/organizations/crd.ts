import { pruneRuleDescription } from '../../prune.js';
import { MAX_ORGANIZATIONS, MAX_ORG_DOMAINS, MAX_ORG_LINKS, ORG_ALIAS_PATTERN, ORG_DOMAIN_PATTERN, ORG_TEXT_MAX_LENGTH } from './spec.js';

// The schema of a realm's organizations: the same rules as the codec in organization-spec.ts (which also
// refuses a domain listed by two organizations).

const text = { type: 'string', minLength: 1, maxLength: ORG_TEXT_MAX_LENGTH };
const aliasOf = (item: string): string => `(has(${item}.alias) ? ${item}.alias : ${item}.name)`;

const domain = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { ...text, pattern: ORG_DOMAIN_PATTERN, description: 'The domain name, e.g. example.com.' },
    verified: { type: 'boolean', description: 'Whether the domain is verified (Keycloak\'s default: false).' },
  },
};

const organization = {
  type: 'object',
  required: ['name'],
  'x-kubernetes-validations': [{ rule: `has(self.alias) || self.name.matches('${ORG_ALIAS_PATTERN}')`, fieldPath: '.name', message: 'without alias, the name is the alias: letters, digits, ., _ and - only' }],
  properties: {
    name: { ...text, description: 'The organization\'s name, unique in the realm; without alias, also its alias.' },
    alias: { ...text, pattern: ORG_ALIAS_PATTERN, description: 'Keycloak\'s key of the organization (default: the name); Keycloak cannot change it.' },
    description: { type: 'string', description: 'The organization\'s description.' },
    enabled: { type: 'boolean', description: 'Whether the organization is enabled; left out, as Keycloak has it.' },
    redirectUrl: { type: 'string', description: 'Where members go after their invitation or registration.' },
    domains: {
      type: 'array',
      maxItems: MAX_ORG_DOMAINS,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      description: 'The organization\'s domains: exactly these when given. A domain belongs to one organization of a realm.',
      items: domain,
    },
    attributes: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, description: 'Exactly these attributes when given (Keyward\'s marker aside).' },
    identityProviders: {
      type: 'array',
      maxItems: MAX_ORG_LINKS,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['alias'],
      description: 'Identity providers of the realm, by alias, linked to the organization: exactly these when given and not empty. A provider belongs to one organization.',
      items: { type: 'object', required: ['alias'], properties: { alias: { ...text, pattern: ORG_ALIAS_PATTERN, description: 'The alias of an identity provider of this realm.' } } },
    },
  },
};

export const organizationsSchema = {
  type: 'array',
  maxItems: MAX_ORGANIZATIONS,
  description: `Organizations of the realm (Keycloak 26; needs organizationsEnabled), by alias; those made from this list carry a marker in their attributes. ${pruneRuleDescription('organizations')}`,
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['name'],
  'x-kubernetes-validations': [{ rule: `self.all(o, self.exists_one(p, ${aliasOf('p')} == ${aliasOf('o')}))`, message: 'two organizations have the same alias' }],
  items: organization,
};
