// For tests of code that uses the Keycloak API: an in-memory Keycloak for InMemoryWorld.
export { SimulatedKeycloak, simulateKeycloak, MASKED } from './apis/keycloak/simulator.js';
