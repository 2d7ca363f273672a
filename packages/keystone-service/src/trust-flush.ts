import * as t from 'io-ts';
import { withDefault } from '@keyward/kernel/model';
import { cronSchedule, matching } from './codec-helpers.js';
import { CRON_FIELD_PATTERN } from './cron-pattern.js';

// C5C3's trustFlush: a CronJob that runs `keystone-manage trust_flush`, which deletes expired and deleted trusts
// (Keystone keeps them otherwise). The codec and the CRD's schema of the same rules.

export const DEFAULT_TRUST_FLUSH_SCHEDULE = '0 * * * *';
/** trust_flush's options, each with its value: which trusts to flush. */
export const TRUST_FLUSH_ARG_PATTERN = '^--(project-id|trustor-user-id|trustee-user-id|date)=[A-Za-z0-9_:.+-]+$';

export const DEFAULT_TRUST_FLUSH = { schedule: DEFAULT_TRUST_FLUSH_SCHEDULE, suspend: false, args: [] };

export const trustFlushCodec = t.type({
  schedule: withDefault(cronSchedule, DEFAULT_TRUST_FLUSH_SCHEDULE),
  suspend: withDefault(t.boolean, false),
  args: withDefault(t.array(matching(TRUST_FLUSH_ARG_PATTERN, 'a trust_flush option: --project-id, --trustor-user-id, --trustee-user-id or --date, with "=" and its value')), []),
});

export const trustFlushSchema = {
  type: 'object',
  default: DEFAULT_TRUST_FLUSH,
  description: `CronJob <name>-trust-flush, which runs keystone-manage trust_flush: expired and deleted trusts are removed from the database. Default hourly.`,
  properties: {
    schedule: { type: 'string', pattern: CRON_FIELD_PATTERN, default: DEFAULT_TRUST_FLUSH_SCHEDULE, description: `When it runs: cron, UTC; default "${DEFAULT_TRUST_FLUSH_SCHEDULE}" (hourly).` },
    suspend: { type: 'boolean', default: false, description: 'Stops it from running (the CronJob stays).' },
    args: { type: 'array', default: [], items: { type: 'string', pattern: TRUST_FLUSH_ARG_PATTERN }, description: 'trust_flush options, each as --option=value: --project-id, --trustor-user-id, --trustee-user-id, --date (flush trusts that expired before it).' },
  },
};
