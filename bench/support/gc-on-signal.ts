// Preloaded into a measured process (node --expose-gc --import this file): SIGUSR2 runs full garbage
// collections, so a memory figure can be taken without the garbage of whatever ran last. The process itself is
// not changed otherwise.
const gc = (globalThis as { gc?: () => void }).gc;
// Installed even without gc: SIGUSR2 would otherwise end the process.
process.on('SIGUSR2', () => {
  gc?.();
  // A second collection once finalizers of the first have run frees what they released (sockets, buffers).
  setTimeout(() => { gc?.(); }, 500);
});
