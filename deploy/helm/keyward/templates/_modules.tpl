{{- /* pnpm generate:chart writes this from the operator's modules; change them, not this file. */ -}}

{{- /* The controllers the operator knows; values.controllers must name only these. */ -}}
{{- define "keyward.knownControllers" -}}
keystone-appcred apikey-enforcement keycloak-realm keycloak-client keystone-service
{{- end }}

{{- /* The API modules' settings (their clients' limits) as [variable, value] pairs, JSON. */ -}}
{{- define "keyward.apiSettings" -}}
{{- toJson (list
  (list "KEYWARD_KUBE_API_QPS" .Values.kubernetesApi.qps)
  (list "KEYWARD_KUBE_API_BURST" .Values.kubernetesApi.burst)
  (list "KEYWARD_KEYCLOAK_NAMESPACE_RATE" .Values.keycloak.rateLimits.namespaceRate)
  (list "KEYWARD_KEYCLOAK_NAMESPACE_BURST" .Values.keycloak.rateLimits.namespaceBurst)
  (list "KEYWARD_KEYCLOAK_GLOBAL_RATE" .Values.keycloak.rateLimits.globalRate)
  (list "KEYWARD_KEYCLOAK_GLOBAL_BURST" .Values.keycloak.rateLimits.globalBurst)
  (list "KEYWARD_KEYCLOAK_TOKEN_RATE" .Values.keycloak.rateLimits.tokenRate)
  (list "KEYWARD_KEYCLOAK_TOKEN_BURST" .Values.keycloak.rateLimits.tokenBurst)
) -}}
{{- end }}

{{- /* The controller modules' settings as [variable, value] pairs, JSON. */ -}}
{{- define "keyward.controllerSettings" -}}
{{- toJson (list
  (list "KEYWARD_KEYSTONE_URL" .Values.keystone.url)
  (list "KEYWARD_REVOKE_ON_DELETE" .Values.keystone.revokeOnDelete)
  (list "KEYWARD_ENFORCEMENT_NAMESPACE" .Values.apikeyEnforcement.namespace)
  (list "KEYWARD_KEYCLOAK_URL" .Values.keycloak.url)
  (list "KEYWARD_KEYCLOAK_ADMIN_SECRET" .Values.keycloak.adminSecret)
  (list "KEYWARD_KEYCLOAK_OPERATOR_NAMESPACE" (.Values.keycloak.operatorNamespace | default .Release.Namespace))
  (list "KEYWARD_KEYCLOAK_ADOPT_UNOWNED" .Values.keycloak.adoptUnowned)
  (list "KEYWARD_KEYCLOAK_ADOPT_UNOWNED_NAMESPACES" (join "," (.Values.keycloak.adoptUnownedNamespaces | default (list))))
  (list "KEYWARD_KEYCLOAK_NAMESPACE_CONCURRENCY" .Values.keycloak.namespaceConcurrency)
  (list "KEYWARD_KEYCLOAK_ALLOWED_SERVICE_ACCOUNT_ROLES" (join "," (.Values.keycloak.allowedServiceAccountRoles | default (list))))
  (list "KEYWARD_KEYCLOAK_RESYNC_PERIOD" .Values.keycloak.resyncPeriod)
  (list "KEYWARD_KEYCLOAK_ALLOW_JS_POLICIES" .Values.keycloak.allowJsPolicies)
  (list "KEYWARD_KEYSTONE_CLUSTER_DOMAIN" .Values.keystoneService.clusterDomain)
) -}}
{{- end }}

{{- /* Fails on a module's value the schema cannot refuse (a malformed namespace/name, a retired value). */ -}}
{{- define "keyward.validateModuleValues" -}}
{{- if and .Values.keycloak.adminSecret (not (regexMatch "^[a-z0-9]([-a-z0-9]*[a-z0-9])?/[a-z0-9]([-.a-z0-9]*[a-z0-9])?$" .Values.keycloak.adminSecret)) -}}
{{- fail (printf "keycloak.adminSecret: %q is not namespace/name" .Values.keycloak.adminSecret) -}}
{{- end -}}
{{- if .Values.keycloak.adoptUnowned -}}
{{- fail "keycloak.adoptUnowned: no longer taken, adoption is not operator-wide; list the namespaces (or namespace/realm) that may adopt in keycloak.adoptUnownedNamespaces" -}}
{{- end -}}
{{- end }}
