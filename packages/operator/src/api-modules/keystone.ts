import { keystoneApi } from '@keyward/core';
import { keystoneRuntime } from '@keyward/core/interpreter';
import { keystoneRequestMetrics } from '@keyward/core/runtime';
import { keystoneSandbox } from '../planning/keystone-sandbox.js';
import { defineApiModule } from './module.js';

/** Keystone: a client per endpoint, each request counted; in a plan, a stand-in that sends nothing. */
export const keystoneApiModule = defineApiModule({
  api: keystoneApi,
  options: {},
  runtime: ({ kube, metrics }) => keystoneRuntime({ kube, ...(metrics === undefined ? {} : { client: { observer: keystoneRequestMetrics(metrics) } }) }),
  sandbox: keystoneSandbox,
});
