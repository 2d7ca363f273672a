// The pure vocabulary: model, plans, the API modules' pure halves and controller modules. The interpreter's pure
// engine is at '@keyward/vocabulary/interpreter' and the in-memory test kit at '@keyward/vocabulary/testing'.
export * from './model/index.js';
export * from './plan/index.js';
