import { httpCall, type HttpResponse } from './http.js';

export interface KeystoneAdminCredentials {
  /** Identity v3 endpoint, ending in /v3. */
  readonly url: string;
  readonly username: string;
  readonly password: string;
  readonly projectName: string;
  readonly domain: string;
}

export interface KeystoneUserCredentials {
  readonly userId: string;
  readonly userName: string;
  readonly password: string;
  readonly projectId: string;
  readonly projectName: string;
  readonly domain: string;
}

/** The body of a project-scoped password authentication request. */
export function passwordAuthBody(user: { username: string; password: string; projectName: string; domain: string }): string {
  return JSON.stringify({
    auth: {
      identity: { methods: ['password'], password: { user: { name: user.username, domain: { name: user.domain }, password: user.password } } },
      scope: { project: { name: user.projectName, domain: { name: user.domain } } },
    },
  });
}

interface Named {
  readonly id: string;
  readonly name: string;
}

/** Admin calls the tests need to set Keystone up. Not product code: Keyward's Keystone client lives in @keyward/runtime. */
export class KeystoneAdmin {
  private constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly remember: (secret: string) => void,
  ) {}

  /**
   * `remember` learns each secret this client creates or uses (its token, the passwords of the users it makes)
   * before it is used, so the suite's secret scan looks for them.
   */
  static async login(admin: KeystoneAdminCredentials, remember: (secret: string) => void = () => undefined): Promise<KeystoneAdmin> {
    const res = await httpCall(`${admin.url}/auth/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: passwordAuthBody(admin),
    });
    const token = res.headers['x-subject-token'];
    if (res.status !== 201 || token === undefined) throw new Error(`Keystone admin login failed: HTTP ${String(res.status)}`);
    remember(token);
    return new KeystoneAdmin(admin.url, token, remember);
  }

  private async call(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    return this.parse(method, path, await this.request(method, path, body));
  }

  private request(method: string, path: string, body?: unknown): Promise<HttpResponse> {
    return httpCall(`${this.url}${path}`, {
      method,
      headers: { 'x-auth-token': this.token, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  private parse(method: string, path: string, res: HttpResponse): Record<string, unknown> {
    if (res.status >= 300) throw new Error(`Keystone ${method} ${path}: HTTP ${String(res.status)} ${res.body.slice(0, 300)}`);
    return res.body === '' ? {} : (JSON.parse(res.body) as Record<string, unknown>);
  }

  /** Finds an object by name in a collection ("projects", "roles", "users") or creates it with `fields`. */
  private async findOrCreate(collection: string, singular: string, name: string, fields: Record<string, unknown>): Promise<Named> {
    const existing = await this.find(collection, name);
    if (existing !== undefined) return existing;
    const res = await this.request('POST', `/${collection}`, { [singular]: { name, ...fields } });
    // Test files run side by side: another may have created it since the lookup (Keystone answers 409).
    if (res.status === 409) {
      const created = await this.find(collection, name);
      if (created !== undefined) return created;
    }
    return this.parse('POST', `/${collection}`, res)[singular] as Named;
  }

  private async find(collection: string, name: string): Promise<Named | undefined> {
    const found = (await this.call('GET', `/${collection}?name=${encodeURIComponent(name)}`))[collection] as Named[] | undefined;
    return found?.[0];
  }

  /**
   * Ensures a project, the roles (default: `service`) and a password user with those roles on the project (the
   * shape of an OpenStack service user). Idempotent; uses the REST API because the Debian openstack CLI's
   * `role add` is broken.
   */
  async ensureServiceUser(options: { userName: string; password: string; projectName?: string; roles?: readonly string[] }): Promise<KeystoneUserCredentials> {
    this.remember(options.password);
    const projectName = options.projectName ?? 'service';
    const project = await this.findOrCreate('projects', 'project', projectName, { domain_id: 'default', enabled: true });
    const user = await this.findOrCreate('users', 'user', options.userName, {
      domain_id: 'default',
      enabled: true,
      password: options.password,
      default_project_id: project.id,
    });
    for (const roleName of options.roles ?? ['service']) {
      const role = await this.findOrCreate('roles', 'role', roleName, {});
      await this.call('PUT', `/projects/${project.id}/users/${user.id}/roles/${role.id}`);
    }
    return { userId: user.id, userName: options.userName, password: options.password, projectId: project.id, projectName, domain: 'Default' };
  }

  /** The ids of a user's application credentials, as Keystone lists them. */
  async applicationCredentialIds(userId: string): Promise<string[]> {
    const listed = (await this.call('GET', `/users/${userId}/application_credentials`))['application_credentials'] as Named[] | undefined;
    return (listed ?? []).map((credential) => credential.id);
  }
}
