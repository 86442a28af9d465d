#!/usr/bin/env node
// Validates Kubernetes manifests offline: each document against the Kubernetes API schema of its
// apiVersion/kind (the kubernetes-models package: compiled JSON-schema validators, no API server),
// then field names against the API types (the schemas accept unknown fields, the API server with
// strict validation does not, and a typo there is silently dropped), then the rules a cellgate fleet
// depends on (probes, stop window, selectors, references).
//
//   node validate-manifests.mjs FILE.yaml...     exit 0: all valid; 1: problems (one line each)
//
// The npm packages come from CELLGATE_NPM_TOOLS (default <repo>/.ci/npm-tools; .ci/npm-tools.sh).
import { readFileSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { checkFields } from "./known-fields.mjs";
import { checkFleetRules } from "./fleet-rules.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const tools = process.env.CELLGATE_NPM_TOOLS || path.resolve(here, "../../../.ci/npm-tools");
const requireTools = createRequire(path.join(tools, "node_modules", "noop.js"));

function resolveTool(spec) {
  try {
    return requireTools.resolve(spec);
  } catch {
    console.error(`validate-manifests: cannot find ${spec} under ${tools}/node_modules: run bash .ci/npm-tools.sh`);
    process.exit(2);
  }
}

const YAML = await import(pathToFileURL(resolveTool("yaml")).href);
const modelsRoot = path.dirname(resolveTool("kubernetes-models/package.json"));

/** "apps/v1" -> kubernetes-models/apps/v1 ; "v1" -> kubernetes-models/v1 */
async function modelFor(apiVersion, kind) {
  if (typeof apiVersion !== "string" || typeof kind !== "string") {
    return { error: "apiVersion and kind must be strings" };
  }
  const dir = path.join(modelsRoot, ...apiVersion.split("/"));
  const file = path.join(dir, `${kind}.js`);
  if (!/^[A-Za-z0-9.\/-]+$/.test(apiVersion) || !/^[A-Za-z0-9]+$/.test(kind) || !existsSync(file)) {
    return { error: `unknown apiVersion/kind ${apiVersion} ${kind}` };
  }
  const mod = await import(pathToFileURL(file).href);
  return { Model: mod[kind], typesFile: path.join(dir, `${kind}.d.ts`) };
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: validate-manifests.mjs FILE.yaml...");
  process.exit(2);
}

const problems = [];
const objects = [];
for (const file of files) {
  let docs;
  try {
    docs = YAML.parseAllDocuments(readFileSync(file, "utf8"));
  } catch (e) {
    problems.push(`${file}: ${e.message}`);
    continue;
  }
  let index = 0;
  for (const doc of docs) {
    index++;
    const where = `${file}#${index}`;
    if (doc.errors.length) {
      problems.push(...doc.errors.map((e) => `${where}: YAML: ${e.message.split("\n")[0]}`));
      continue;
    }
    const obj = doc.toJS();
    if (obj === null || obj === undefined) continue; // an empty document (a trailing ---)
    const label = `${where} ${obj.kind ?? "?"} ${obj.metadata?.name ?? "?"}`;
    const { Model, typesFile, error } = await modelFor(obj.apiVersion, obj.kind);
    if (error) {
      problems.push(`${label}: ${error}`);
      continue;
    }
    try {
      new Model(obj).validate();
    } catch (e) {
      problems.push(`${label}: schema: ${e.message}`);
    }
    for (const p of checkFields(obj, typesFile)) problems.push(`${label}: ${p}`);
    objects.push({ label, obj });
  }
}
for (const p of checkFleetRules(objects)) problems.push(p);

if (problems.length) {
  for (const p of problems) console.log(`INVALID ${p}`);
  console.log(`validate-manifests: ${problems.length} problem(s) in ${files.length} file(s)`);
  process.exit(1);
}
console.log(`validate-manifests: ${objects.length} object(s) in ${files.length} file(s) valid: ${objects.map((o) => `${o.obj.kind}/${o.obj.metadata?.name}`).join(", ")}`);
