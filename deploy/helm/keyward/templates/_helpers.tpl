{{/*
The labels of every object but the RBAC (whose labels are exactly those `keyward rbac` prints).
*/}}
{{- define "keyward.labels" -}}
app.kubernetes.io/name: keyward
app.kubernetes.io/instance: {{ .Release.Name | quote }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service | quote }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | quote }}
{{- end }}

{{/*
The labels that select the operator's pods, as in deploy/operator.
*/}}
{{- define "keyward.selectorLabels" -}}
app.kubernetes.io/name: keyward
app.kubernetes.io/component: operator
{{- end }}

{{/*
The namespace of the Keycloak admin Secret's Roles: the Secret's own, else --keycloak-operator-namespace.
*/}}
{{- define "keyward.keycloakOperatorNamespace" -}}
{{- .Values.keycloak.operatorNamespace | default .Release.Namespace -}}
{{- end }}

{{- define "keyward.keycloakAdminSecretNamespace" -}}
{{- if .Values.keycloak.adminSecret -}}
{{- regexReplaceAll "/.*$" .Values.keycloak.adminSecret "" -}}
{{- else -}}
{{- include "keyward.keycloakOperatorNamespace" . -}}
{{- end -}}
{{- end }}

{{/*
Stops rendering on values the operator would refuse at start-up, with a message that names the value.
*/}}
{{- define "keyward.validate" -}}
{{- $known := splitList " " (include "keyward.knownControllers" .) -}}
{{- if not .Values.controllers -}}
{{- fail (printf "controllers: name at least one of %s" (join ", " $known)) -}}
{{- end -}}
{{- range .Values.controllers -}}
{{- if not (has . $known) -}}
{{- fail (printf "controllers: unknown controller %q (known: %s)" . (join ", " $known)) -}}
{{- end -}}
{{- end -}}
{{- if and (gt (int .Values.replicas) 1) (not .Values.leaderElection.enabled) -}}
{{- fail "replicas: more than one replica needs leaderElection.enabled" -}}
{{- end -}}
{{- if and .Values.keycloak.adminSecret (not (regexMatch "^[a-z0-9]([-a-z0-9]*[a-z0-9])?/[a-z0-9]([-.a-z0-9]*[a-z0-9])?$" .Values.keycloak.adminSecret)) -}}
{{- fail (printf "keycloak.adminSecret: %q is not namespace/name" .Values.keycloak.adminSecret) -}}
{{- end -}}
{{- if .Values.keycloak.adoptUnowned -}}
{{- fail "keycloak.adoptUnowned: no longer taken, adoption is not operator-wide; list the namespaces (or namespace/realm) that may adopt in keycloak.adoptUnownedNamespaces" -}}
{{- end -}}
{{- include "keyward.requireRoleNamespaces" . -}}
{{- end }}

{{/*
The namespaces other than the release's that the chart puts Roles in, each with the value that names it.
*/}}
{{- define "keyward.roleNamespaces" -}}
{{- $places := list -}}
{{- range .Values.namespaces | default (list) -}}
{{- $places = append $places (list . "namespaces") -}}
{{- end -}}
{{- if has "apikey-enforcement" .Values.controllers -}}
{{- $places = append $places (list .Values.apikeyEnforcement.namespace "apikeyEnforcement.namespace") -}}
{{- end -}}
{{- if or (has "keycloak-realm" .Values.controllers) (has "keycloak-client" .Values.controllers) -}}
{{- $places = append $places (list (include "keyward.keycloakAdminSecretNamespace" .) (ternary "keycloak.adminSecret" "keycloak.operatorNamespace" (ne .Values.keycloak.adminSecret ""))) -}}
{{- end -}}
{{- $own := list -}}
{{- range $places -}}
{{- if ne (index . 0) $.Release.Namespace -}}
{{- $own = append $own . -}}
{{- end -}}
{{- end -}}
{{- toJson $own -}}
{{- end }}

{{/*
Installing or upgrading against a cluster (where lookup answers; `helm template` and client dry runs have no
cluster, and say nothing here), stops before anything is created when a namespace the chart puts a Role in
does not exist: otherwise the API server refuses that Role midway and Helm leaves a failed release behind.
These namespaces belong to others (Kuadrant's, the teams'), so the chart does not create them.
*/}}
{{- define "keyward.requireRoleNamespaces" -}}
{{- if lookup "v1" "Namespace" "" "kube-system" -}}
{{- $missing := list -}}
{{- range include "keyward.roleNamespaces" . | fromJsonArray -}}
{{- if not (lookup "v1" "Namespace" "" (index . 0)) -}}
{{- $missing = append $missing (printf "%s (%s)" (index . 0) (index . 1)) -}}
{{- end -}}
{{- end -}}
{{- if $missing -}}
{{- fail (printf "the chart puts Roles in namespaces that do not exist: %s. Create them first (the enforcement namespace is the one Authorino reads API keys from, made by Kuadrant's install), name existing ones in those values, or leave out the controllers that need them" (join ", " (uniq $missing))) -}}
{{- end -}}
{{- end -}}
{{- end }}

{{/*
The operator's permissions, as packages/operator/src/rbac.ts declares them, per component (the runtime and
each controller), in declaration order. A scope says where a rule lands:
  watched:             every watched namespace (a ClusterRole when all are watched)
  cluster:             the cluster, in every install (cluster-scoped resources)
  operator:            the release namespace (the leader Lease, the published settings)
  enforcement:         apikeyEnforcement.namespace
  keycloakAdminSecret: the admin Secret's namespace, else the Keycloak operator namespace
Tests render the chart for several values and compare its roles with `keyward rbac` for the same settings.
*/}}
{{- define "keyward.rbacRules" -}}
runtime:
  - { apiGroups: [coordination.k8s.io], resources: [leases], verbs: [get, create, update], scope: operator }
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
  - { apiGroups: [""], resources: [secrets], verbs: [get, list, watch, create, delete], scope: enforcement }
keycloak-realm:
  - { apiGroups: [vriesdemichael.github.io], resources: [keycloakrealms], verbs: [get, list, watch, patch], scope: watched }
  - { apiGroups: [vriesdemichael.github.io], resources: [keycloakrealms/status], verbs: [patch], scope: watched }
  - { apiGroups: [""], resources: [secrets], verbs: [get, list, watch], scope: watched }
  - { apiGroups: [""], resources: [secrets], verbs: [get, list, watch], scope: keycloakAdminSecret }
keycloak-client:
  - { apiGroups: [vriesdemichael.github.io], resources: [keycloakclients], verbs: [get, list, watch, patch], scope: watched }
  - { apiGroups: [vriesdemichael.github.io], resources: [keycloakclients/status], verbs: [patch], scope: watched }
  - { apiGroups: [vriesdemichael.github.io], resources: [keycloakrealms], verbs: [get, list, watch], scope: watched }
  - { apiGroups: [""], resources: [secrets], verbs: [get, list, watch, create, patch, delete], scope: watched }
  - { apiGroups: [""], resources: [secrets], verbs: [get, list, watch], scope: keycloakAdminSecret }
keystone-service:
  - { apiGroups: [keystone.openstack.c5c3.io], resources: [keystones], verbs: [get, list, watch], scope: watched }
  - { apiGroups: [keystone.openstack.c5c3.io], resources: [keystones/status], verbs: [patch], scope: watched }
  - { apiGroups: [""], resources: [secrets, configmaps], verbs: [get, list, watch, create, patch, delete], scope: watched }
  - { apiGroups: [""], resources: [services], verbs: [get, list, watch, create, patch], scope: watched }
  - { apiGroups: [""], resources: [pods], verbs: [get, list, watch], scope: watched }
  - { apiGroups: [apps], resources: [deployments], verbs: [get, list, watch, create, patch], scope: watched }
  - { apiGroups: [apps], resources: [replicasets], verbs: [get, list, watch], scope: watched }
  - { apiGroups: [batch], resources: [jobs], verbs: [get, list, watch, create, delete], scope: watched }
  - { apiGroups: [policy], resources: [poddisruptionbudgets], verbs: [get, list, watch, create, patch], scope: watched }
  - { apiGroups: [k8s.mariadb.com], resources: [databases, users, grants], verbs: [get, list, watch, create, patch], scope: watched }
  - { apiGroups: [external-secrets.io], resources: [externalsecrets], verbs: [list, watch], scope: watched }
  - { apiGroups: [""], resources: [events], verbs: [create], scope: watched }
{{- end }}

{{/*
The name of a role in a place ("*": the cluster), as `keyward rbac` names it: a namespaced install's
ClusterRoles carry the release namespace, so namespaced installs in namespaces of their own share none.
Arguments: (list $ name place).
*/}}
{{- define "keyward.roleName" -}}
{{- $root := index . 0 -}}
{{- $name := index . 1 -}}
{{- if and (eq (index . 2) "*") $root.Values.namespaces -}}
{{- printf "%s-%s" $name $root.Release.Namespace -}}
{{- else -}}
{{- $name -}}
{{- end -}}
{{- end }}
