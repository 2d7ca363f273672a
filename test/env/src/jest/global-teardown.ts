/** Stops the environment global-setup started; an attached one keeps running. */
export default async function globalTeardown(): Promise<void> {
  await globalThis.keywardEnvironment?.stop();
  globalThis.keywardEnvironment = undefined;
}
