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
How many replicas the Deployment runs: `shards` when the objects are shared out (more than one), else `replicas`.
*/}}
{{- define "keyward.replicaCount" -}}
{{- if gt (int .Values.shards) 1 }}{{ int .Values.shards }}{{ else }}{{ int .Values.replicas }}{{ end -}}
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
{{- if and (gt (int .Values.shards) 1) (not .Values.leaderElection.enabled) -}}
{{- fail "shards: sharing the objects out holds a Lease per replica and needs leaderElection.enabled" -}}
{{- end -}}
{{- include "keyward.validateModuleValues" . -}}
{{- include "keyward.requireRoleNamespaces" . -}}
{{- end }}

{{/*
The namespaces other than the release's that the chart puts Roles in, each with the value that names it: the
watched ones, and those the values name for the rules of the controllers that run (in the controllers' order).
*/}}
{{- define "keyward.roleNamespaces" -}}
{{- $places := list -}}
{{- range .Values.namespaces | default (list) -}}
{{- $places = append $places (list . "namespaces") -}}
{{- end -}}
{{- $rules := include "keyward.rbacRules" . | fromYaml -}}
{{- $named := include "keyward.namedNamespaces" . | fromJson -}}
{{- range $component := splitList " " (include "keyward.knownControllers" .) -}}
{{- if has $component $.Values.controllers -}}
{{- range get $rules $component -}}
{{- if and (hasKey $named .scope) (not (has (get $named .scope) $places)) -}}
{{- $places = append $places (get $named .scope) -}}
{{- end -}}
{{- end -}}
{{- end -}}
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
