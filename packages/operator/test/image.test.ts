// The operator image is built two ways: deploy/Dockerfile for people with Docker, and
// tools/build-operator-image.sh without a daemon (the tests' and CI's image). Both must describe the same image.
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { imageEntrypoint } from './image-entrypoint.js';
import { chartDefaults, helmTemplate, operatorDeployment } from './helm-chart.js';

const repo = (path: string): string => readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), 'utf8');

/** The image config tools/build-operator-image.sh writes (the OCI config's "config" object). */
interface ImageConfig {
  readonly User: string;
  readonly Env: readonly string[];
  readonly WorkingDir: string;
  readonly Entrypoint: readonly string[];
}
const scriptConfig = JSON.parse(repo('tools/operator-image/config.json')) as ImageConfig;
const scriptNodeVersion = /^NODE_VERSION=(\d+\.\d+\.\d+)$/m.exec(repo('tools/operator-image/node.env'))?.[1];

/** The Dockerfile's final stage: its base image and the instructions that shape the image config. */
function finalStage(dockerfile: string): { readonly from: string; readonly user: string | undefined; readonly workdir: string | undefined; readonly env: readonly string[] } {
  const lines = dockerfile.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
  const start = lines.map((line) => line.startsWith('FROM ')).lastIndexOf(true);
  const stage = lines.slice(start);
  const last = (instruction: string): string | undefined => stage.filter((line) => line.startsWith(`${instruction} `)).at(-1)?.slice(instruction.length + 1).trim();
  return {
    from: last('FROM') ?? '',
    user: last('USER'),
    workdir: last('WORKDIR'),
    env: stage.filter((line) => line.startsWith('ENV ')).map((line) => line.slice(4).trim()),
  };
}

describe('the operator image', () => {
  const dockerfile = finalStage(repo('deploy/Dockerfile'));

  it('runs the same Node.js major release from both builds, the current LTS', () => {
    const dockerNode = /^node:(\d+)\.\d+\.\d+-/.exec(dockerfile.from)?.[1];
    expect(scriptNodeVersion).toBeDefined();
    expect(dockerNode).toBe(scriptNodeVersion?.split('.')[0]);
    expect(dockerNode).toBe('24');
  });

  it('runs as the same numeric non-root user from both builds, the one the chart sets', () => {
    expect(dockerfile.user).toBe(scriptConfig.User);
    expect(scriptConfig.User).toBe('65532:65532');
    const { deployment, container } = operatorDeployment(helmTemplate({ namespace: 'keyward', values: chartDefaults() }));
    const pod = deployment.spec.template.spec['securityContext'] as { readonly runAsUser?: number; readonly runAsGroup?: number };
    const own = container['securityContext'] as { readonly runAsUser?: number };
    expect(`${String(own.runAsUser)}:${String(pod.runAsGroup)}`).toBe(scriptConfig.User);
    expect(`${String(pod.runAsUser)}:${String(pod.runAsGroup)}`).toBe(scriptConfig.User);
  });

  it('starts the bundle with the same entry point and V8 flags, in the same working directory', () => {
    expect(scriptConfig.Entrypoint).toEqual(imageEntrypoint());
    expect(dockerfile.workdir).toBe(scriptConfig.WorkingDir);
  });

  it('sets the same environment', () => {
    expect(dockerfile.env.every((variable) => scriptConfig.Env.includes(variable))).toBe(true);
    expect(scriptConfig.Env.filter((variable) => !variable.startsWith('PATH='))).toEqual([...dockerfile.env]);
  });
});
