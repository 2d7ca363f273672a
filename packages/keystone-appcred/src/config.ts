/** Operator-level settings of the appcred controller. */
export interface AppCredConfig {
  /** Keystone URL to use instead of the KeystoneAPI object's internal endpoint ("/v3" is appended when missing). */
  readonly keystoneUrl?: string | undefined;
  /** Revoke the credentials of a deleted CR. Off by default, so an accidental delete never breaks running services. */
  readonly revokeOnDelete: boolean;
  /** How soon to look again while Keystone is not usable. */
  readonly keystoneRetryMs: number;
}

export const defaultAppCredConfig: AppCredConfig = { revokeOnDelete: false, keystoneRetryMs: 10_000 };
