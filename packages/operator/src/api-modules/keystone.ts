import { keystoneApi } from '@keyward/kernel';
import { keystoneRuntime } from '@keyward/runtime/io';
import { keystoneRequestMetrics } from '@keyward/runtime/controller';
import { keystoneSandbox } from '../planning/keystone-sandbox.js';
import { defineApiModule } from './module.js';

/** Keystone: a client per endpoint, each request counted; in a plan, a stand-in that sends nothing. */
export const keystoneApiModule = defineApiModule({
  api: keystoneApi,
  options: {},
  runtime: ({ kube, metrics }) => keystoneRuntime({ kube, ...(metrics === undefined ? {} : { client: { observer: keystoneRequestMetrics(metrics) } }) }),
  sandbox: keystoneSandbox,
});
