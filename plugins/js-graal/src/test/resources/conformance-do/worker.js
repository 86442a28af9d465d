// The Durable Object conformance fixture: the same bundle runs on workerd (miniflare, SQLite-backed
// objects) and on cellgate's real cell host (DurableObjectConformanceTest.java). Each case is
// GET /case/<name> and answers JSON; every case talks to objects named after it, so each starts
// from an empty database. cases.json lists the cases and the ones that differ on purpose.
import { describe, sleep } from './describe.js';

export { Store, Plain, Gate, Breaker, Rpc } from './objects.js';

const outcome = async (p) => {
  try {
    return ['ok', describe(await p)];
  } catch (e) {
    return ['error', e?.name, e?.message, e?.remote === true];
  }
};
const text = async (p) => {
  try {
    const r = await p;
    return [r.status, await r.text(), r.headers.get('x-rpc')];
  } catch (e) {
    return ['error', e?.name, e?.message, e?.remote === true];
  }
};

/** Polls until the object's alarm ran `runs` times and left no alarm behind (or 20 s passed). */
async function alarmRuns(stub, runs) {
  let status;
  for (let i = 0; i < 200; i++) {
    status = await stub.alarmStatus();
    if (status.runs.length >= runs && status.alarm === null) break;
    await sleep(100);
  }
  return status;
}

const cases = {
  'transaction-across-io': (env, name) => env.STORE.getByName(name).transactionAcrossIo(),
  'alarm-set-get-delete': async (env, name) => {
    const plain = await env.PLAIN.getByName(name).tryAlarm();
    const store = env.STORE.getByName(name);
    await store.arm(3_600_000, 0, 0);
    const set = (await store.alarmStatus()).alarm !== null;
    const bad = await outcome(store.run('kv-get-errors').then(() => 'fine'));
    return { plain, set, bad };
  },
  'alarm-fires': async (env, name) => {
    const stub = env.STORE.getByName(name);
    const armed = await stub.arm(50, 0, 0);
    return { armed, status: await alarmRuns(stub, 1) };
  },
  'alarm-retries': async (env, name) => {
    const stub = env.STORE.getByName(name);
    await stub.arm(20, 2, 0);
    return alarmRuns(stub, 3);
  },
  'alarm-rearm': async (env, name) => {
    const stub = env.STORE.getByName(name);
    await stub.arm(20, 0, 2);
    return alarmRuns(stub, 3);
  },
  // RPC calls and fetches race each other to an object in workerd (an RPC takes another hop), so a
  // log keeps the order of events of one kind only; events of both kinds are compared as sets.
  'bcw-constructor': async (env, name) => {
    const stub = env.GATE.getByName(name);
    const [first, second] = await Promise.all([stub.quick('a'), text(stub.fetch('http://do/b'))]);
    const log = await stub.getLog();
    return { first, second, log: log.slice(0, 2).concat(log.slice(2).sort()) };
  },
  'bcw-holds-fetches': async (env, name) => {
    const stub = env.GATE.getByName(name);
    await stub.fetch('http://do/warm');
    const held = [text(stub.fetch('http://do/hold')), text(stub.fetch('http://do/q1')), text(stub.fetch('http://do/q2'))];
    return { results: await Promise.all(held), log: await stub.getLog() };
  },
  'bcw-holds-rpc': async (env, name) => {
    const stub = env.GATE.getByName(name);
    await stub.quick('warm');
    const results = await Promise.all([stub.holdRpc(), stub.quick('q1'), stub.quick('q2')]);
    return { results, log: await stub.getLog() };
  },
  'bcw-holds-both-kinds': async (env, name) => {
    const stub = env.GATE.getByName(name);
    await stub.quick('warm');
    const hold = text(stub.fetch('http://do/hold?ms=500'));
    await sleep(150);
    const queued = [stub.quick('q-rpc'), text(stub.fetch('http://do/q-fetch'))];
    const results = [await hold, ...(await Promise.all(queued))];
    const log = await stub.getLog();
    return { results, log: log.slice(0, 5).concat(log.slice(5).sort()) };
  },
  'bcw-values': async (env, name) => env.GATE.getByName(name).syncValue(),
  'bcw-failure-resets': async (env, name) => {
    const stub = env.BREAKER.getByName(name);
    const before = await stub.touch();
    const calls = [outcome(stub.breakIt(true)), outcome(stub.touch()), outcome(stub.touch())];
    const results = await Promise.all(calls);
    const fresh = await env.BREAKER.getByName(name).touch();
    return { before, results, fresh };
  },
  'abort-resets': async (env, name) => {
    const stub = env.BREAKER.getByName(name);
    const before = await stub.touch();
    await stub.keep('kept');
    const aborted = await outcome(stub.abortIt('bye now'));
    const fresh = env.BREAKER.getByName(name);
    return { before, aborted, after: await fresh.touch(), finallyRan: await fresh.finallyRan() };
  },
  'abort-default-reason': async (env, name) => outcome(env.BREAKER.getByName(name).abortIt()),
  'abort-fails-calls-in-flight': async (env, name) => {
    const stub = env.BREAKER.getByName(name);
    await stub.touch();
    const slow = outcome(stub.slowTouch(400));
    await sleep(100);
    const aborted = await outcome(stub.abortIt('stop'));
    return { aborted, slow: await slow, after: await env.BREAKER.getByName(name).touch() };
  },
  'input-gate-storage': async (env, name) => {
    const stub = env.STORE.getByName(name);
    const results = await Promise.all(Array.from({ length: 20 }, () => stub.incr()));
    return { sorted: results.sort((a, b) => a - b), final: await stub.read('n') };
  },
  'io-interleaves': async (env, name) => {
    const stub = env.GATE.getByName(name);
    await stub.quick('warm');
    const results = await Promise.all([text(stub.fetch('http://do/slow')), stub.quick('meanwhile')]);
    return { results, log: await stub.getLog() };
  },
  'rpc-error-classes': async (env, name) => {
    const stub = env.RPC.getByName(name);
    const out = {};
    for (const m of ['range', 'type', 'custom', 'str', 'dom', 'withCause']) out[m] = await outcome(stub[m]());
    out.cause = await stub.withCause().catch((e) => describe(e.cause));
    out.returned = await outcome(stub.returnsError());
    return out;
  },
  'rpc-refused-members': async (env, name) => {
    const stub = env.RPC.getByName(name);
    const out = {};
    for (const m of ['nope', 'field', 'prop', 'alarm']) out[m] = await outcome(stub[m]());
    return out;
  },
  'rpc-structured-clone': async (env, name) => {
    const stub = env.RPC.getByName(name);
    const args = [new Date(5), new Map([[1, { a: [2n] }]]), new Set(['s']), new Uint8Array([1, 2]).subarray(1), undefined, null, -0,
      { nested: { deeper: [new Float32Array([0.5])] } }];
    return { echoed: describe(await stub.echo(...args)) };
  },
  'rpc-function-argument': async (env, name) => outcome(env.RPC.getByName(name).echo(() => 1)),
  'rpc-stub-fetch': async (env, name) => {
    const stub = env.RPC.getByName(name);
    return {
      ok: await text(stub.fetch('http://do/path?q=1', { method: 'POST', body: 'x' })),
      request: await text(stub.fetch(new Request('http://do/req', { method: 'PUT', body: 'y' }))),
      thrown: await text(stub.fetch('http://do/throw')),
      notResponse: await text(stub.fetch('http://do/not-a-response')),
    };
  },
  ids: async (env, name) => {
    const a = env.STORE.idFromName(name);
    const again = env.STORE.idFromName(name);
    const other = env.STORE.idFromName(name + '-other');
    const unique = env.STORE.newUniqueId();
    const parsed = env.STORE.idFromString(a.toString().toUpperCase());
    return {
      deterministic: a.toString() === again.toString(), equals: [a.equals(again), a.equals(other), a.equals(parsed)],
      names: [a.name, unique.name, parsed.name], uniqueHex: /^[0-9a-f]{64}$/.test(unique.toString()),
      badString: await outcome((async () => env.STORE.idFromString('xyz'))()),
      inside: await env.STORE.get(a).idInfo(name), byName: await env.STORE.getByName(name).idInfo(name),
      stubName: env.STORE.getByName(name).name, stubId: env.STORE.getByName(name).id.toString() === a.toString(),
    };
  },
  'wait-until': async (env, name) => {
    const stub = env.STORE.getByName(name);
    const answer = await stub.waitUntilWrite(100);
    const before = await stub.read('later');
    let after;
    for (let i = 0; i < 50 && (after = await stub.read('later')) === 'undefined'; i++) await sleep(50);
    return { answer, before, after };
  },
};

export default {
  async fetch(request, env) {
    const name = new URL(request.url).pathname.replace(/^\/case\//, '');
    try {
      if (name in cases) return Response.json(await cases[name](env, name));
      return Response.json(await env.STORE.getByName(name).run(name));
    } catch (e) {
      return Response.json({ uncaught: [e?.name, e?.message] }, { status: 500 });
    }
  },
};
