export { enforcementSecretName } from './api.js';
