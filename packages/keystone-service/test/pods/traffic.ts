import { httpCall, passwordAuthBody } from '@keyward/test-env';

/** What a client saw while it ran: requests that succeeded, and each one that did not, with what went wrong. */
export interface TrafficCounts {
  readonly issued: number;
  readonly validated: number;
  readonly failures: readonly string[];
}

/**
 * A client that, until stopped, issues a token for the admin user and validates `subject` (a token from
 * before) through `url`, one request after the other on a fresh connection each, as clients of a Keystone
 * behind a Service do. Any answer but 201 and 200, and any connection error, is a failure.
 */
function tokenTraffic(url: string, password: string, auth: string, subject: string): { stop: () => Promise<TrafficCounts> } {
  const state = { running: true };
  let issued = 0;
  let validated = 0;
  const failures: string[] = [];
  const attempt = async (what: string, call: () => Promise<{ status: number }>, expected: number): Promise<boolean> => {
    try {
      const { status } = await call();
      if (status === expected) return true;
      failures.push(`${new Date().toISOString()} ${what}: answered ${String(status)}`);
    } catch (error) {
      failures.push(`${new Date().toISOString()} ${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return false;
  };
  const loop = (async () => {
    while (state.running) {
      const body = passwordAuthBody({ username: 'admin', password, projectName: 'admin', domain: 'Default' });
      if (await attempt('issue', () => httpCall(`${url}/auth/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, timeoutMs: 30_000 }), 201)) issued += 1;
      if (await attempt('validate', () => httpCall(`${url}/auth/tokens`, { headers: { 'x-auth-token': auth, 'x-subject-token': subject }, timeoutMs: 30_000 }), 200)) validated += 1;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return {
    stop: async () => {
      state.running = false;
      await loop;
      return { issued, validated, failures };
    },
  };
}

/** Runs `during` with tokenTraffic going on, and stops the client however `during` ends. */
export async function withTokenTraffic<T>(target: { url: string; password: string; auth: string; subject: string }, during: () => Promise<T>): Promise<{ result: T; counts: TrafficCounts }> {
  const traffic = tokenTraffic(target.url, target.password, target.auth, target.subject);
  try {
    const result = await during();
    return { result, counts: await traffic.stop() };
  } finally {
    await traffic.stop();
  }
}
