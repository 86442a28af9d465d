// Unknown-field check. The JSON schemas in kubernetes-models accept properties they do not list
// (like the OpenAPI they come from), so `terminationGracePeriodSecond: 30` passes them, and an API
// server without strict field validation drops it without a word. The package's type declarations
// (.d.ts) list every field of every API type, with the file that declares the field's type: walk
// the object along them and report each name the API does not have.
import { readFileSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const parsed = new Map();

/** The first interface of a .d.ts: {fields: Map(name -> typeText), imports: Map(typeName -> file)}; null for an alias (a scalar). */
function parseTypes(file) {
  if (parsed.has(file)) return parsed.get(file);
  const text = readFileSync(file, "utf8");
  const imports = new Map();
  for (const m of text.matchAll(/^import \{ ([^}]+) \} from "([^"]+)";$/gm)) {
    for (const name of m[1].split(",").map((s) => s.trim())) imports.set(name, m[2]);
  }
  const body = /^export interface \w+(?: extends [\w, ]+)? \{\n([\s\S]*?)^\}/m.exec(text);
  let result = null;
  if (body) {
    const fields = new Map();
    for (const m of body[1].matchAll(/^    "([^"]+)"\??: (.*)$/gm)) fields.set(m[1], m[2].replace(/;$/, ""));
    result = { fields, imports, file };
  }
  parsed.set(file, result);
  return result;
}

/** The .d.ts declaring a type that `types` imports, or null (a primitive, a union, an inline map). */
function typeFile(types, typeText) {
  const name = /^(?:Array<)?(I\w+)>?$/.exec(typeText)?.[1];
  const spec = name && types.imports.get(name);
  if (!spec) return null;
  let resolved;
  if (spec.startsWith(".")) {
    resolved = path.resolve(path.dirname(types.file), spec);
  } else {
    try {
      resolved = createRequire(types.file).resolve(spec);
    } catch {
      return null;
    }
  }
  const dts = resolved.replace(/\.js$/, "") + ".d.ts";
  return existsSync(dts) ? dts : null;
}

function walk(value, file, at, problems) {
  const types = file && parseTypes(file);
  if (!types || value === null || typeof value !== "object" || Array.isArray(value)) return;
  for (const [key, child] of Object.entries(value)) {
    const typeText = types.fields.get(key);
    if (typeText === undefined) {
      const known = [...types.fields.keys()];
      const near = known.find((k) => k.toLowerCase().startsWith(key.toLowerCase().slice(0, 6)));
      problems.push(`unknown field ${at}${key}${near ? ` (did you mean ${near}?)` : ""}`);
      continue;
    }
    const childFile = typeFile(types, typeText);
    if (!childFile) continue;
    if (Array.isArray(child)) {
      child.forEach((item, i) => walk(item, childFile, `${at}${key}[${i}].`, problems));
    } else {
      walk(child, childFile, `${at}${key}.`, problems);
    }
  }
}

/** Each field of `obj` that its kind's API type (declared in `typesFile`) does not have. */
export function checkFields(obj, typesFile) {
  const problems = [];
  walk(obj, typesFile, "", problems);
  return problems;
}
