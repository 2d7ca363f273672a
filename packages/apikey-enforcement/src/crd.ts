import { conditionColumn, conditionSchema, dateTimeSchema, DNS1123_SUBDOMAIN_MAX_LENGTH, DNS1123_SUBDOMAIN_PATTERN, namespacedCrd } from '@keyward/vocabulary';
import { apiKeyType } from './api.js';

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
    // The controller cannot read an APIKey without a spec: the API server refuses one, as the codec does.
    required: ['spec'],
    spec: {
      type: 'object',
      required: ['apiProductRef', 'secretRef', 'planTier', 'useCase', 'requestedBy'],
      properties: {
        apiProductRef: { type: 'object', required: ['name'], properties: { name: objectName, namespace: text } },
        secretRef: { type: 'object', required: ['name'], properties: { name: objectName } },
        planTier: text,
        useCase: text,
        requestedBy: { type: 'object', required: ['userId', 'email'], properties: { userId: text, email: text } },
        expiresAt: dateTimeSchema,
      },
    },
    status: {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      properties: {
        conditions: { type: 'array', items: conditionSchema },
      },
    },
  },
});
