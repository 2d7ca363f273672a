// The pure parts. Import the impure ones from '@keyward/core/interpreter' and '@keyward/core/runtime', so a
// pure consumer never loads the Kubernetes client, axios or winston.
export * from './model/index.js';
export * from './plan/index.js';
