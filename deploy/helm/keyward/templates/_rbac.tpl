{{- /* pnpm generate:chart writes this from the operator's modules; change them, not this file. */ -}}

{{- /*
The operator's permissions, as packages/operator/src/rbac.ts (the runtime's) and the controller modules declare
them, per component, in declaration order. A scope says where a rule lands:
  watched:  every watched namespace (a ClusterRole when all are watched)
  cluster:  the cluster, in every install (cluster-scoped resources)
  operator: the release namespace (the leader Lease, the published settings)
  a value's path (several joined by "|": the first that names one): the namespace it names (keyward.namedNamespaces)
Tests render the chart for several values and compare its roles with `keyward rbac` for the same settings.
*/ -}}
{{- define "keyward.rbacRules" -}}
runtime:
  - { apiGroups: [coordination.k8s.io], resources: [leases], verbs: [get, list, create, update, delete], scope: operator }
  - { apiGroups: [""], resources: [configmaps], verbs: [create, patch], scope: operator }
  - { apiGroups: [""], resources: [events], verbs: [create], scope: watched }
  - { apiGroups: [authentication.k8s.io], resources: [tokenreviews], verbs: [create], scope: cluster }
  - { apiGroups: [authorization.k8s.io], resources: [subjectaccessreviews], verbs: [create], scope: cluster }
keystone-appcred:
  - { apiGroups: [keystone.openstack.org], resources: [keystoneapplicationcredentials], verbs: [get, list, watch, patch], scope: watched }
  - { apiGroups: [keystone.openstack.org], resources: [keystoneapplicationcredentials/status], verbs: [patch], scope: watched }
  - { apiGroups: [keystone.openstack.org], resources: [keystoneapis], verbs: [get, list, watch], scope: watched }
  - { apiGroups: [keystone.openstack.c5c3.io], resources: [keystones], verbs: [get, list, watch], scope: watched }
  - { apiGroups: [""], resources: [secrets], verbs: [get, list, watch, create, patch, delete], scope: watched }
apikey-enforcement:
  - { apiGroups: [devportal.kuadrant.io], resources: [apikeys], verbs: [get, list, watch], scope: watched }
  - { apiGroups: [devportal.kuadrant.io], resources: [apikeys/status], verbs: [patch], scope: watched }
  - { apiGroups: [""], resources: [secrets], verbs: [get, list, watch], scope: watched }
  - { apiGroups: [""], resources: [secrets], verbs: [get, list, watch, create, delete], scope: apikeyEnforcement.namespace }
keycloak-realm:
  - { apiGroups: [vriesdemichael.github.io], resources: [keycloakrealms], verbs: [get, list, watch, patch], scope: watched }
  - { apiGroups: [vriesdemichael.github.io], resources: [keycloakrealms/status], verbs: [patch], scope: watched }
  - { apiGroups: [""], resources: [secrets], verbs: [get, list, watch], scope: watched }
  - { apiGroups: [""], resources: [secrets], verbs: [get, list, watch], scope: "keycloak.adminSecret|keycloak.operatorNamespace" }
keycloak-client:
  - { apiGroups: [vriesdemichael.github.io], resources: [keycloakclients], verbs: [get, list, watch, patch], scope: watched }
  - { apiGroups: [vriesdemichael.github.io], resources: [keycloakclients/status], verbs: [patch], scope: watched }
  - { apiGroups: [vriesdemichael.github.io], resources: [keycloakrealms], verbs: [get, list, watch], scope: watched }
  - { apiGroups: [""], resources: [secrets], verbs: [get, list, watch, create, patch, delete], scope: watched }
  - { apiGroups: [""], resources: [secrets], verbs: [get, list, watch], scope: "keycloak.adminSecret|keycloak.operatorNamespace" }
keystone-service:
  - { apiGroups: [keystone.openstack.c5c3.io], resources: [keystones], verbs: [get, list, watch], scope: watched }
  - { apiGroups: [keystone.openstack.c5c3.io], resources: [keystones/status], verbs: [patch], scope: watched }
  - { apiGroups: [""], resources: [secrets, configmaps], verbs: [get, list, watch, create, patch, delete], scope: watched }
  - { apiGroups: [""], resources: [services], verbs: [get, list, watch, create, patch], scope: watched }
  - { apiGroups: [""], resources: [pods], verbs: [get, list, watch], scope: watched }
  - { apiGroups: [apps], resources: [deployments], verbs: [get, list, watch, create, patch], scope: watched }
  - { apiGroups: [apps], resources: [replicasets], verbs: [get, list, watch], scope: watched }
  - { apiGroups: [batch], resources: [jobs], verbs: [get, list, watch, create, delete], scope: watched }
  - { apiGroups: [batch], resources: [cronjobs], verbs: [get, list, watch, create, patch], scope: watched }
  - { apiGroups: [autoscaling], resources: [horizontalpodautoscalers], verbs: [get, list, watch, create, patch, delete], scope: watched }
  - { apiGroups: [policy], resources: [poddisruptionbudgets], verbs: [get, list, watch, create, patch], scope: watched }
  - { apiGroups: [k8s.mariadb.com], resources: [databases, users, grants], verbs: [get, list, watch, create, patch], scope: watched }
  - { apiGroups: [external-secrets.io], resources: [externalsecrets], verbs: [list, watch], scope: watched }
  - { apiGroups: [""], resources: [events], verbs: [create], scope: watched }
{{- end }}

{{- /* The namespaces values name for rules, by scope: [the namespace, the value that names it], JSON. */ -}}
{{- define "keyward.namedNamespaces" -}}
{{- toJson (dict
  "apikeyEnforcement.namespace" (list .Values.apikeyEnforcement.namespace "apikeyEnforcement.namespace")
  "keycloak.adminSecret|keycloak.operatorNamespace" (ternary (list (regexReplaceAll "/.*$" .Values.keycloak.adminSecret "") "keycloak.adminSecret") (list (.Values.keycloak.operatorNamespace | default .Release.Namespace) "keycloak.operatorNamespace") (not (empty (regexReplaceAll "/.*$" .Values.keycloak.adminSecret ""))))
) -}}
{{- end }}
