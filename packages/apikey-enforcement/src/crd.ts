import { conditionColumn, conditionSchema, namespacedCrd } from '@keyward/kernel/plan';
import { dateTimeSchema, DNS1123_SUBDOMAIN_MAX_LENGTH, DNS1123_SUBDOMAIN_PATTERN } from '@keyward/kernel/model';
import { CONDITION_APPROVED, CONDITION_DENIED, CONDITION_FAILED, CONDITION_PENDING, FailureReason, apiKeyType } from './api.js';

const text = { type: 'string' };
/** The name of a Kubernetes object, as the codec's kubernetesName checks it. */
const objectName = { type: 'string', maxLength: DNS1123_SUBDOMAIN_MAX_LENGTH, pattern: DNS1123_SUBDOMAIN_PATTERN };

/**
 * An APIKey CRD compatible with Kuadrant's developer portal (same group, version, names and spec fields), for
 * clusters that do not have it. Status is left open (x-kubernetes-preserve-unknown-fields) because the
 * devportal writes fields of its own there; conditions are typed.
 */
export const apiKeyCrd = namespacedCrd({
  type: apiKeyType,
  singular: 'apikey',
  shortNames: ['apik'],
  printerColumns: [
    { name: 'Product', type: 'string', jsonPath: '.spec.apiProductRef.name' },
    { name: 'Plan', type: 'string', jsonPath: '.spec.planTier' },
    conditionColumn('Approved', 'Approved'),
    conditionColumn('Failed', 'Failed', 'reason'),
  ],
  schema: {
    description: 'APIKey: a consumer\'s request for an API key to an API product; once approved, Keyward copies the key into the Secret Authorino enforces it from.',
    // The controller cannot read an APIKey without a spec: the API server refuses one, as the codec does.
    required: ['spec'],
    spec: {
      type: 'object',
      description: 'What the consumer asks for and where their key is.',
      required: ['apiProductRef', 'secretRef', 'planTier', 'useCase', 'requestedBy'],
      properties: {
        apiProductRef: {
          type: 'object',
          description: 'The API product the key is for.',
          required: ['name'],
          properties: {
            name: { ...objectName, description: 'Name of the APIProduct; the enforcement Secret carries it in the devportal.kuadrant.io/apiproduct label and annotation.' },
            namespace: { ...text, description: 'Namespace of the APIProduct, for the developer portal; Keyward does not read it.' },
          },
        },
        secretRef: {
          type: 'object',
          description: 'The consumer\'s Secret, in the APIKey\'s namespace, whose api_key holds the key; Keyward only reads it.',
          required: ['name'],
          properties: { name: { ...objectName, description: 'Name of that Secret.' } },
        },
        planTier: { ...text, description: 'The plan of the API product the key is on; the enforcement Secret carries it in the secret.kuadrant.io/plan-id annotation.' },
        useCase: { ...text, description: 'What the consumer wants the key for, for the API owner who approves it; Keyward does not read it.' },
        requestedBy: {
          type: 'object',
          description: 'Who asked for the key.',
          required: ['userId', 'email'],
          properties: {
            userId: { ...text, description: 'The requester\'s user id; the enforcement Secret carries it in the secret.kuadrant.io/user-id annotation.' },
            email: { ...text, description: 'The requester\'s email address, for the developer portal; Keyward does not read it.' },
          },
        },
        expiresAt: { ...dateTimeSchema, description: 'When the key should stop being valid, an RFC 3339 time with a zone (2030-01-31T12:00:00Z), for the developer portal; Keyward checks its form and does not act on it.' },
      },
    },
    status: {
      type: 'object',
      description: 'Written by the developer portal and by Keyward; fields of the portal\'s own are kept.',
      'x-kubernetes-preserve-unknown-fields': true,
      properties: {
        conditions: {
          type: 'array',
          items: conditionSchema,
          description: `The portal's ${CONDITION_PENDING}, ${CONDITION_APPROVED} and ${CONDITION_DENIED}, which Keyward acts on, and ${CONDITION_FAILED}, which Keyward sets when it cannot create the enforcement Secret (reason ${Object.values(FailureReason).join(', ')}) and clears once it can.`,
        },
      },
    },
  },
});
