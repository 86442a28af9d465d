// The rules a cellgate fleet's manifests must follow beyond the API schema (docs/operations.md):
// probes on the right endpoints, a stop window that fits the drain, selectors and references that
// point at something.
const HEALTH = "/__celld/health";
const DEFAULT_DRAIN_MS = 25000; // CELLD_SHUTDOWN_DRAIN_MS default (runtime-core Settings)
// After the drain bound the node still closes sockets, its internal listener and hands its lease
// back (one 2 s timeout), then the JVM halts and the launcher exits: 3 s covers both.
const AFTER_DRAIN_MS = 3000;
const DEFAULT_GRACE_S = 30; // terminationGracePeriodSeconds when unset

const matches = (selector, labels) =>
  selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels?.[k] === v);

function envValue(container, name) {
  const e = (container.env || []).find((x) => x.name === name);
  return e && typeof e.value === "string" ? e.value : undefined;
}

function preStopSeconds(container) {
  const h = container.lifecycle?.preStop;
  if (!h) return null;
  if (h.sleep) return Number(h.sleep.seconds);
  const cmd = h.exec?.command;
  if (Array.isArray(cmd) && /(^|\/)sleep$/.test(cmd[0]) && cmd.length === 2) return Number(cmd[1]);
  return 0; // another handler: its duration is unknown, count nothing
}

function probePath(probe) {
  return probe?.httpGet?.path;
}

function checkNodeContainer(label, podSpec, c, problems) {
  const at = `${label} container ${c.name}`;
  if (probePath(c.readinessProbe) !== HEALTH) {
    problems.push(`${at}: readinessProbe must be httpGet ${HEALTH} (200 only when a Worker request would be served)`);
  }
  for (const kind of ["livenessProbe", "startupProbe"]) {
    if (probePath(c[kind]) === HEALTH) {
      problems.push(`${at}: ${kind} must not use ${HEALTH}: it answers 503 while a node waits for its first deployment or drains, and a restart would not help`);
    }
  }
  const pre = preStopSeconds(c);
  if (pre === null) problems.push(`${at}: no lifecycle.preStop (let the pod leave the Service endpoints before SIGTERM)`);
  const grace = podSpec.terminationGracePeriodSeconds ?? DEFAULT_GRACE_S;
  const afterSigterm = (grace - (pre ?? 0)) * 1000;
  const drainText = envValue(c, "CELLD_SHUTDOWN_DRAIN_MS");
  const drain = drainText === undefined ? DEFAULT_DRAIN_MS : Number(drainText);
  const stopGraceText = envValue(c, "CELLD_STOP_GRACE_MS");
  if (stopGraceText === undefined) {
    problems.push(`${at}: set CELLD_STOP_GRACE_MS (the time from SIGTERM to SIGKILL: ${afterSigterm} ms here) so that the node refuses a drain bound that does not fit`);
  } else if (Number(stopGraceText) > afterSigterm) {
    problems.push(`${at}: CELLD_STOP_GRACE_MS=${stopGraceText} but SIGKILL comes ${afterSigterm} ms after SIGTERM (terminationGracePeriodSeconds ${grace} - preStop ${pre ?? 0} s)`);
  }
  if (drain + AFTER_DRAIN_MS > afterSigterm) {
    problems.push(`${at}: stop window too short: terminationGracePeriodSeconds ${grace} - preStop ${pre ?? 0} s = ${afterSigterm} ms after SIGTERM, but the drain bound ${drain} ms + ${AFTER_DRAIN_MS} ms after it needs ${drain + AFTER_DRAIN_MS} ms`);
  }
}

/** objects: [{label, obj}] of every manifest; returns one line per broken rule. */
export function checkFleetRules(objects) {
  const problems = [];
  const byKind = (k) => objects.filter((o) => o.obj.kind === k);
  const named = (k, name) => byKind(k).find((o) => o.obj.metadata?.name === name);
  const workloads = [...byKind("StatefulSet"), ...byKind("Deployment")];

  for (const { label, obj } of workloads) {
    const pod = obj.spec?.template;
    const podSpec = pod?.spec || {};
    if (!matches(obj.spec?.selector?.matchLabels, pod?.metadata?.labels)) {
      problems.push(`${label}: spec.selector.matchLabels does not select its own pod template`);
    }
    const nodes = (podSpec.containers || []).filter((c) => /cellgate/.test(c.image || "") || c.name === "cellgate");
    if (nodes.length === 0) problems.push(`${label}: no cellgate container`);
    for (const c of nodes) checkNodeContainer(label, podSpec, c, problems);
    for (const v of podSpec.volumes || []) {
      if (v.configMap && !named("ConfigMap", v.configMap.name)) problems.push(`${label}: volume ${v.name} names ConfigMap ${v.configMap.name}, which is not among the manifests`);
      if (v.secret && !named("Secret", v.secret.secretName)) problems.push(`${label}: volume ${v.name} names Secret ${v.secret.secretName}, which is not among the manifests`);
    }
    for (const c of podSpec.containers || []) {
      for (const f of c.envFrom || []) {
        if (f.secretRef && !named("Secret", f.secretRef.name)) problems.push(`${label}: envFrom names Secret ${f.secretRef.name}, which is not among the manifests`);
        if (f.configMapRef && !named("ConfigMap", f.configMapRef.name)) problems.push(`${label}: envFrom names ConfigMap ${f.configMapRef.name}, which is not among the manifests`);
      }
    }
    if (obj.kind === "StatefulSet") {
      const gov = named("Service", obj.spec?.serviceName);
      if (!gov) {
        problems.push(`${label}: serviceName ${obj.spec?.serviceName} is not among the manifests`);
      } else {
        if (gov.obj.spec?.clusterIP !== "None") problems.push(`${gov.label}: the StatefulSet's governing Service must be headless (clusterIP: None)`);
        if (gov.obj.spec?.publishNotReadyAddresses !== true) problems.push(`${gov.label}: set publishNotReadyAddresses: true (a draining node is not ready, and its peers must still reach it)`);
      }
    }
  }

  const podLabels = workloads.map((w) => w.obj.spec?.template?.metadata?.labels);
  const containerPorts = workloads.flatMap((w) => (w.obj.spec?.template?.spec?.containers || []).flatMap((c) => c.ports || []));
  for (const { label, obj } of byKind("Service")) {
    if (!podLabels.some((l) => matches(obj.spec?.selector, l))) problems.push(`${label}: selector selects no pod of the manifests`);
    for (const p of obj.spec?.ports || []) {
      const t = p.targetPort ?? p.port;
      const found = typeof t === "string" ? containerPorts.some((cp) => cp.name === t) : containerPorts.some((cp) => cp.containerPort === t);
      if (!found) problems.push(`${label}: port ${p.name ?? p.port} targets ${t}, which no container declares`);
    }
  }
  for (const { label, obj } of byKind("PodDisruptionBudget")) {
    if (!podLabels.some((l) => matches(obj.spec?.selector?.matchLabels, l))) problems.push(`${label}: selector selects no pod of the manifests`);
  }
  if (workloads.length && byKind("PodDisruptionBudget").length === 0) problems.push("no PodDisruptionBudget for the fleet");
  return problems;
}
