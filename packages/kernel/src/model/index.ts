export * from './names.js';
export * from './conditions.js';
export * from './duration.js';
export * from './refs.js';
export * from './sensitive.js';
export * from './codec.js';
export * from './text.js';
export * from './option-values.js';
