// The pure parts, from @keyward/vocabulary (which installs without the I/O libraries). Import the impure ones
// from '@keyward/core/interpreter' and '@keyward/core/runtime'.
export * from '@keyward/vocabulary';
