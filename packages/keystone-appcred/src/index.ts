export { ACIDSecretKey, ACSecretSecretKey, getACCRName } from './api.js';
export { computeSecurityHash, goJsonString, securityHashInput } from './security-hash.js';
export type { AccessRuleFields, SecurityRelevantSpec } from './security-hash.js';
