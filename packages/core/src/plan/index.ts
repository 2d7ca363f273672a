// Kept so existing imports work: the code lives in @keyward/vocabulary.
export * from '@keyward/vocabulary/plan';
