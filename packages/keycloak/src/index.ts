export * from './apis/keycloak/index.js';
