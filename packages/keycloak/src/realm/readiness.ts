import type { Readiness } from '../readiness.js';

export const ready = (message: string): Readiness => ({ state: 'ready', reason: 'Ready', message });
export const reconciling = (reason: string, message: string): Readiness => ({ state: 'reconciling', reason, message });
export const stalled = (reason: string, message: string): Readiness => ({ state: 'stalled', reason, message });
