/**
 * A reconcile's random bytes, drawn on first use and extended only when a longer prefix is asked for: most
 * reconciles never read them, and drawing for each of thousands of reconciles is measurable. The same length
 * gives the same bytes, so the reconcile stays a function of its input.
 */
export function lazyEntropy(draw: (bytes: number) => Uint8Array): (bytes: number) => Uint8Array {
  let drawn = new Uint8Array(0);
  return (bytes) => {
    if (bytes > drawn.length) {
      const longer = new Uint8Array(bytes);
      longer.set(drawn);
      longer.set(draw(bytes - drawn.length), drawn.length);
      drawn = longer;
    }
    return drawn.slice(0, bytes);
  };
}
