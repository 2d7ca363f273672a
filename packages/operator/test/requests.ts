// Small helpers for tests that act as the operator's identity or as the API owner.
import { KeywardError } from '@keyward/kernel/interpreter';

/** An APIKey status as the devportal writes it when the API owner approves or denies the key. */
export function approval(type: 'Approved' | 'Denied'): { status: { conditions: Record<string, string>[] } } {
  return { status: { conditions: [{ type, status: 'True', reason: type, message: 'by the API owner', lastTransitionTime: '2026-01-01T00:00:00Z' }] } };
}

/** The HTTP status a request ended with: `success` when it succeeded, else the API server's code. */
export async function statusOf(request: () => Promise<unknown>, success = 200): Promise<number> {
  try {
    await request();
    return success;
  } catch (error) {
    if (error instanceof KeywardError) return error.code;
    throw error;
  }
}
