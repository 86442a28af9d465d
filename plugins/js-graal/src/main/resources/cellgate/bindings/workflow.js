// Workflows (env.<workflow binding>, docs/workflows.md). Each instance is a cell of the built-in
// Durable Object class below; its id comes from the Workflow's name and the instance id
// (runtime-core WorkflowCells), so ownership, the output gate, replication, handoff, takeover
// after a crash and alarms are the cell's. The cell evaluates the Worker's own module, so it
// constructs the Worker's WorkflowEntrypoint class itself and calls run(event, step) with
// Cloudflare's replay model: every wake runs run() from the top; a step that completed returns
// its stored result; a sleep, a retry delay or a wait for an event stores its wake time, sets the
// cell's alarm and suspends the run. Three parts: the pure rules (RULES, unit-tested by
// WorkflowRulesTest), the instance's cell, and the Worker's API.
(function (host, internal) {
  'use strict';
  const CELL_CLASS = '$cellgate$Workflow';
  const CREATE = Symbol('create');

  // ---- the rules: decisions only, no storage, no clock (the caller passes `now`) ----

  const UNITS = { ms: 1, millisecond: 1, second: 1000, minute: 60000, hour: 3600000, day: 86400000, week: 604800000,
    month: 2592000000, year: 31557600000 };
  const FINITE = ['complete', 'errored', 'terminated'];
  const RULES = {
    STATUSES: ['queued', 'running', 'paused', 'errored', 'terminated', 'complete', 'waiting', 'waitingForPause', 'unknown'],
    DEFAULT_CONFIG: { retries: { limit: 5, delay: 1000, backoff: 'exponential' }, timeout: '10 minutes' },
    DEFAULT_EVENT_TIMEOUT: '24 hours',
    STEP_LIMIT: 10000,
    MAX_ID_LENGTH: 100,
    MAX_STEP_NAME_LENGTH: 256,

    /** An instance id: 1 to 100 of letters, digits, - and _, not starting with -. */
    validInstanceId(id) {
      return typeof id === 'string' && id.length <= RULES.MAX_ID_LENGTH && /^[a-zA-Z0-9_][a-zA-Z0-9_-]*$/.test(id);
    },
    /** A step name: a string of at most 256 characters without control characters. */
    validStepName(name) {
      return typeof name === 'string' && name.length <= RULES.MAX_STEP_NAME_LENGTH && !/[\u0000-\u001f]/.test(name);
    },
    /** Milliseconds of a number or of "<n> <unit>[s]" (ms, second, minute, hour, day, week, month, year); NaN otherwise. */
    durationMs(value) {
      if (typeof value === 'number') return value;
      if (typeof value !== 'string') return NaN;
      if (value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
      const m = /^\s*(\d+(?:\.\d+)?)\s+([a-z]+)\s*$/.exec(value);
      if (m === null) return NaN;
      const unit = UNITS[m[2]] !== undefined ? m[2] : m[2].endsWith('s') ? m[2].slice(0, -1) : m[2];
      return UNITS[unit] === undefined ? NaN : Number(m[1]) * UNITS[unit];
    },
    /**
     * A step's configuration over the defaults, or null when it is not of the documented form:
     * {retries?: {limit >= 0, delay: ms | duration | function, backoff?: constant|linear|exponential}, timeout?: ms | duration}.
     */
    stepConfig(config) {
      if (config === null || typeof config !== 'object' || Array.isArray(config)) return null;
      if (Object.keys(config).some((k) => k !== 'retries' && k !== 'timeout' && k !== 'sensitive')) return null;
      if (config.sensitive !== undefined && config.sensitive !== 'output') return null;
      const r = config.retries;
      if (r !== undefined) {
        if (r === null || typeof r !== 'object' || Object.keys(r).some((k) => !['limit', 'delay', 'backoff'].includes(k))) return null;
        if (typeof r.limit !== 'number' || !(r.limit >= 0)) return null;
        if (typeof r.delay === 'number' ? !(r.delay >= 0) : typeof r.delay === 'string' ? Number.isNaN(RULES.durationMs(r.delay))
          : typeof r.delay !== 'function') return null;
        if (r.backoff !== undefined && !['constant', 'linear', 'exponential'].includes(r.backoff)) return null;
      }
      const t = config.timeout;
      if (t !== undefined && (typeof t === 'number' ? !(t > 0) : typeof t !== 'string' || !(RULES.durationMs(t) > 0))) return null;
      return {
        retries: { ...RULES.DEFAULT_CONFIG.retries, ...(r || {}) },
        timeout: t === undefined ? RULES.DEFAULT_CONFIG.timeout : t,
      };
    },
    /** Whether a step that failed its `attempts`-th attempt runs again. */
    willRetry(config, attempts) {
      return attempts <= config.retries.limit;
    },
    /** The wait after the `attempts`-th failed attempt, from the base delay (ms or duration); NaN when the base is not one. */
    retryDelayMs(config, attempts, base) {
      const ms = RULES.durationMs(base);
      if (!Number.isFinite(ms) || ms < 0) return NaN;
      switch (config.retries.backoff) {
        case 'exponential': return ms * 2 ** (attempts - 1);
        case 'linear': return ms * attempts;
        default: return ms;
      }
    },
    /** The storage key of the `count`-th call of kind (do, sleep, wait) with this name: names repeat, calls do not. */
    stepKey(kind, name, count) {
      return kind + ':' + count + ':' + name;
    },
    /** May a wake run the instance? */
    runnable(status) {
      return status === 'queued' || status === 'running' || status === 'waiting';
    },
    /** The status after pause(): a run in the middle of a step finishes it first. */
    afterPause(status, stepRunning) {
      if (status !== 'running' && status !== 'waiting') return status;
      return stepRunning ? 'waitingForPause' : 'paused';
    },
    /** The status after resume() (a paused instance runs again from the top: queued, then running). */
    afterResume(status) {
      if (status === 'waitingForPause') return 'running';
      if (status === 'paused') return 'queued';
      return status;
    },
    /** The status after terminate(), or null when the instance already ended (that is an error). */
    afterTerminate(status) {
      return FINITE.includes(status) ? null : 'terminated';
    },
    isFinite(status) {
      return FINITE.includes(status);
    },
    /**
     * Where a run stands once its run() promise settled or it suspended: `suspendAt` (earliest wake
     * asked for, Infinity for none but a pause), `pausing` (a pause is due). Returns the status to
     * store and whether to set the alarm (at `suspendAt`).
     */
    afterSuspend(status, suspendAt, pausing) {
      if (pausing || status === 'waitingForPause' || status === 'paused') return { status: 'paused', alarmAt: null };
      return { status: 'waiting', alarmAt: suspendAt };
    },
    /** Wake times shifted by a pause of `pausedMs` (a sleep does not run down while its instance is paused). */
    shifted(at, pausedMs) {
      return at + Math.max(0, pausedMs);
    },
  };
  internal.workflowRules = RULES;

  // Errors as the Workflow's code sees them on Cloudflare, where the engine runs behind RPC: an
  // error of a built-in class keeps its class and message, any other becomes an Error whose
  // message starts with its name ("WorkflowFatalError: …", "NonRetryableError: …").
  const BUILTIN_ERRORS = { Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError };
  const engineError = (name, message) => new Error(name + ': ' + message);
  const fatal = (message) => engineError('WorkflowFatalError', message);
  const timedOut = (ms) => engineError('WorkflowTimeoutError', `Execution timed out after ${ms}ms`);
  function acrossRpc(e) {
    if (!(e instanceof Error)) return new Error(String(e)); // a thrown string arrives as an Error of that message
    if (BUILTIN_ERRORS[e.name] === Object.getPrototypeOf(e).constructor) return e;
    return new Error(e.name + ': ' + e.message);
  }
  const isNonRetryable = (e) => e instanceof Error && (e.name === 'NonRetryableError' || String(e.message).startsWith('NonRetryableError'));
  // What status().error reports (key order as workerd's JSON has it).
  const errorRecord = (e) => (e instanceof Error ? { message: e.message, name: e.name } : { name: 'Error', message: e });
  const errorFrom = (r) => new (BUILTIN_ERRORS[r.name] || Error)(r.message);

  // ---- the instance's cell ----

  // Keys of the instance's ctx.storage.kv (its own SQLite: the cell's database).
  const META = 'wf.meta'; // {workflowName, className, id, params, createdMs, generation}
  const STATUS = 'wf.status';
  const OUTPUT = 'wf.output'; // {v}
  const ERROR = 'wf.error'; // {name, message}
  const PAUSED_AT = 'wf.pausedAt';
  const MEMO = 'wf.s.'; // + step key: {v} or {e: {name, message}}: the step is done
  const ATTEMPTS = 'wf.a.'; // + step key: attempts started
  const AT = 'wf.t.'; // + step key: a sleep's wake time, a wait's deadline, a retry's next attempt (ms)
  const EVENT = 'wf.ev.'; // + 16-digit sequence: {type, payload, timestampMs}, oldest first
  const EVENT_SEQ = 'wf.evseq';
  // What a suspended call returns: a promise that never settles. A fresh one each time, so that
  // nothing keeps an abandoned run's frames alive once its cell forgets it.
  const never = () => new Promise(() => {});

  /** One execution of run() (a wake): its call counters, whether it still counts, its suspension. */
  class Run {
    constructor(cell, generation) {
      this.cell = cell;
      this.generation = generation;
      this.counts = new Map();
      this.steps = 0;
      this.stepsRunning = 0;
      this.suspendAt = null; // earliest wake a suspended call asked for (Infinity: none, e.g. a pause)
      this.deferred = new Map(); // the broken variant's memos, written only when the run ends or suspends
      this.over = false;
      this.ended = new Promise((resolve) => { this.end = resolve; });
    }
    count(kind, name) {
      const n = (this.counts.get(kind + name) || 0) + 1;
      this.counts.set(kind + name, n);
      return n;
    }
    /** Still this instance's current run: not terminated, restarted or superseded. */
    current() {
      const meta = this.cell.kv.get(META);
      return !this.over && meta !== undefined && meta.generation === this.generation && this.cell.kv.get(STATUS) !== 'terminated';
    }
    memo(key) {
      return this.deferred.has(key) ? this.deferred.get(key) : this.cell.kv.get(MEMO + key);
    }
    /** A step is done only once its result is durable in the bucket: before anything after it runs. */
    async remember(key, record) {
      if (this.cell.host.memoDeferred()) {
        this.deferred.set(key, record);
        return;
      }
      this.cell.kv.put(MEMO + key, record);
      await internal.hostPromise(this.cell.host.durable());
    }
    flush() {
      for (const [key, record] of this.deferred) this.cell.kv.put(MEMO + key, record);
      this.deferred.clear();
    }
    /** Suspends the calling step until `at` (or for good with Infinity); the run ends once no step is running. */
    suspend(at) {
      this.suspendAt = this.suspendAt === null ? at : Math.min(this.suspendAt, at);
      this.maybeEnd();
      return never();
    }
    maybeEnd() {
      if (this.suspendAt !== null && this.stepsRunning === 0) this.end({ suspended: true });
    }
    /** At each step's start: a pause that is due suspends the run; a run that no longer counts stops. */
    checkpoint() {
      if (!this.current()) {
        this.end({ abandoned: true });
        return false;
      }
      const status = this.cell.kv.get(STATUS);
      if (status === 'waitingForPause' || status === 'paused') {
        this.suspend(Infinity);
        return false;
      }
      return true;
    }
  }

  const timeoutOf = (config) => RULES.durationMs(config.timeout);

  class WorkflowStep {
    #run;
    constructor(key, run) {
      if (key !== CREATE) throw new TypeError('Illegal constructor');
      this.#run = run;
    }

    async do(name, configOrCallback, callbackOrRollback, ...rest) {
      const run = this.#run;
      let config = {};
      let callback = configOrCallback;
      let extra = callbackOrRollback;
      if (typeof configOrCallback !== 'function') {
        config = configOrCallback === undefined || configOrCallback === null ? {} : configOrCallback;
        callback = callbackOrRollback;
        extra = rest[0];
        if (typeof callback !== 'function') throw fatal(`Step "${name}" requires a callback function`);
      }
      if (extra !== undefined) {
        throw fatal(`Step "${name}": rollback options are not supported by cellgate (docs/workflows.md)`);
      }
      if (++run.steps > RULES.STEP_LIMIT) {
        // Cloudflare's text adds that the limit can be configured; cellgate's is fixed (workflows[].limits is refused).
        throw fatal(`The limit of ${RULES.STEP_LIMIT} steps has been reached.`);
      }
      if (!RULES.validStepName(name)) {
        throw fatal(`Step name "${name}" exceeds max length (${RULES.MAX_STEP_NAME_LENGTH} chars) or invalid characters found`);
      }
      const merged = RULES.stepConfig(config);
      if (merged === null) {
        throw fatal(`Step config for "${name}" is in a invalid format. See https://developers.cloudflare.com/workflows/build/sleeping-and-retrying/`);
      }
      const count = run.count('do', name);
      const key = RULES.stepKey('do', name, count);
      const kv = run.cell.kv;
      for (;;) {
        const done = run.memo(key);
        if (done !== undefined) {
          if (done.e !== undefined) throw errorFrom(done.e);
          return done.v;
        }
        if (!run.checkpoint()) return never();
        const retryAt = kv.get(AT + key);
        if (retryAt !== undefined && retryAt > Date.now()) return run.suspend(retryAt);
        const attempt = (kv.get(ATTEMPTS + key) || 0) + 1;
        kv.put(ATTEMPTS + key, attempt);
        kv.delete(AT + key);
        const r = merged.retries;
        const stepContext = { step: { name, count }, attempt, config: { retries: { limit: r.limit, backoff: r.backoff, delay: r.delay }, timeout: merged.timeout } };
        let outcome;
        run.stepsRunning++;
        try {
          outcome = await attemptOnce(callback, stepContext, timeoutOf(merged));
        } finally {
          run.stepsRunning--;
        }
        if (!run.current()) {
          run.end({ abandoned: true });
          return never();
        }
        if (outcome.ok) {
          let stored;
          try {
            stored = structuredClone(outcome.value);
          } catch (e) {
            // As on Cloudflare, the instance fails at once: run() does not get to catch it.
            run.end({ fatal: { name: 'WorkflowFatalError',
              message: `The execution of the Workflow instance was terminated, as the step "${name}" returned a value which is not serialisable` } });
            return never();
          }
          await run.remember(key, { v: stored });
          run.maybeEnd();
          return outcome.value;
        }
        const error = acrossRpc(outcome.error);
        if (!isNonRetryable(error) && RULES.willRetry(merged, attempt)) {
          let base = merged.retries.delay;
          if (typeof base === 'function') {
            try {
              base = await base({ ctx: stepContext, error });
            } catch (e) {
              base = NaN;
            }
          }
          const delay = RULES.retryDelayMs(merged, attempt, base);
          if (Number.isNaN(delay)) {
            const failure = fatal(`The delay function for step "${name}-${count}" returned an invalid delay value `
              + '(expected a number of ms or a duration string like "30 seconds")');
            await run.remember(key, { e: errorRecord(failure) });
            run.maybeEnd();
            throw failure;
          }
          kv.put(AT + key, Date.now() + delay);
          continue; // the next round suspends until then (or runs at once for a zero delay)
        }
        await run.remember(key, { e: errorRecord(error) });
        run.maybeEnd();
        throw error;
      }
    }

    async sleep(name, duration) {
      const ms = RULES.durationMs(duration);
      if (!RULES.validStepName(name)) {
        throw fatal(`Step name "${name}" exceeds max length (${RULES.MAX_STEP_NAME_LENGTH} chars) or invalid characters found`);
      }
      if (!(ms >= 0)) throw new TypeError(`step.sleep("${name}"): "${duration}" is not a duration (milliseconds or "<n> <unit>")`);
      return this.#sleepFor(name, ms);
    }

    async sleepUntil(name, timestamp) {
      const at = timestamp instanceof Date ? timestamp.valueOf() : timestamp;
      if (typeof at !== 'number' || Number.isNaN(at)) throw new TypeError(`step.sleepUntil("${name}"): the timestamp must be a Date or milliseconds since the epoch`);
      const now = Date.now();
      const key = RULES.stepKey('sleep', name, (this.#run.counts.get('sleep' + name) || 0) + 1);
      if (at < now && this.#run.cell.kv.get(AT + key) === undefined) throw new Error("You can't sleep until a time in the past, time-traveler");
      return this.#sleepFor(name, at - now);
    }

    async #sleepFor(name, ms) {
      const run = this.#run;
      const kv = run.cell.kv;
      const key = RULES.stepKey('sleep', name, run.count('sleep', name));
      if (run.memo(key) !== undefined) return undefined;
      if (!run.checkpoint()) return never();
      let wake = kv.get(AT + key);
      if (wake === undefined) {
        wake = Date.now() + ms;
        kv.put(AT + key, wake);
      }
      if (Date.now() < wake) return run.suspend(wake);
      await run.remember(key, { v: null });
      return undefined;
    }

    async waitForEvent(name, options) {
      const run = this.#run;
      const kv = run.cell.kv;
      if (options === null || typeof options !== 'object' || typeof options.type !== 'string') {
        throw new TypeError(`step.waitForEvent("${name}"): options must be {type: string, timeout?}`);
      }
      const timeout = options.timeout === undefined ? RULES.DEFAULT_EVENT_TIMEOUT : options.timeout;
      const timeoutMs = RULES.durationMs(timeout);
      if (!(timeoutMs >= 0)) throw new TypeError(`step.waitForEvent("${name}"): "${timeout}" is not a duration`);
      const key = RULES.stepKey('wait', name, run.count('wait', name));
      const done = run.memo(key);
      if (done !== undefined) {
        if (done.e !== undefined) throw errorFrom(done.e);
        return eventOut(done.v);
      }
      if (!run.checkpoint()) return never();
      let deadline = kv.get(AT + key);
      if (deadline === undefined) {
        deadline = Date.now() + timeoutMs;
        kv.put(AT + key, deadline);
      }
      for (const [eventKey, event] of kv.list({ prefix: EVENT })) {
        if (event.type !== options.type) continue;
        kv.delete(eventKey);
        await run.remember(key, { v: event });
        return eventOut(event);
      }
      if (Date.now() >= deadline) {
        const error = timedOut(timeoutMs);
        await run.remember(key, { e: errorRecord(error) });
        throw error;
      }
      return run.suspend(deadline);
    }
  }
  const eventOut = (e) => ({ payload: e.payload, timestamp: new Date(e.timestampMs), type: e.type });

  /** One attempt of a step's callback, bounded by its timeout: {ok, value} or {error}. */
  function attemptOnce(callback, stepContext, timeoutMs) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ error: timedOut(timeoutMs) }), timeoutMs);
      let result;
      try {
        result = Promise.resolve(callback(stepContext));
      } catch (e) {
        result = Promise.reject(e);
      }
      result.then((value) => { clearTimeout(timer); resolve({ ok: true, value }); },
        (error) => { clearTimeout(timer); resolve({ error }); });
    });
  }

  class WorkflowInstanceCell {
    constructor(ctx, env) {
      this.ctx = ctx;
      this.env = env;
      this.kv = ctx.storage.kv;
      this.host = internal.workflowHost;
      this.run = null; // the run in progress on this node, if any
      this.eventDuringRun = false; // an event came while a run was in progress: wake again when it suspends
    }

    /** create(): a new instance, queued, with its first wake due now; {exists} when the id is taken. */
    async create(workflowName, className, id, params) {
      if (this.kv.get(META) !== undefined) return { exists: true };
      this.kv.put(META, { workflowName, className, id, params, createdMs: Date.now(), generation: 0 });
      this.kv.put(STATUS, 'queued');
      await this.ctx.storage.setAlarm(Date.now());
      return { exists: false };
    }

    status() {
      const status = this.kv.get(STATUS);
      if (status === undefined) return { missing: true };
      const output = this.kv.get(OUTPUT);
      return { status, error: this.kv.get(ERROR), output: output === undefined ? null : output.v };
    }

    async pause() {
      const status = this.kv.get(STATUS);
      if (status === undefined) return { missing: true };
      const next = RULES.afterPause(status, this.run !== null && this.run.stepsRunning > 0);
      if (next !== status) {
        this.kv.put(STATUS, next);
        if (next === 'paused') await this.paused();
      }
      return {};
    }

    async paused() {
      this.kv.put(PAUSED_AT, Date.now());
      await this.ctx.storage.deleteAlarm();
    }

    async resume() {
      const status = this.kv.get(STATUS);
      if (status === undefined) return { missing: true };
      const next = RULES.afterResume(status);
      if (next === status) return {};
      this.kv.put(STATUS, next);
      if (status === 'paused') {
        const pausedMs = Date.now() - (this.kv.get(PAUSED_AT) || Date.now());
        for (const [k, at] of this.kv.list({ prefix: AT })) this.kv.put(k, RULES.shifted(at, pausedMs));
        this.kv.delete(PAUSED_AT);
        await this.ctx.storage.setAlarm(Date.now());
      }
      return {};
    }

    async terminate() {
      const status = this.kv.get(STATUS);
      if (status === undefined) return { missing: true };
      const next = RULES.afterTerminate(status);
      if (next === null) return { finite: true };
      this.kv.put(STATUS, next);
      await this.ctx.storage.deleteAlarm();
      return {};
    }

    /** restart(): every step's state goes, the instance is queued again under a new generation. */
    async restart() {
      const meta = this.kv.get(META);
      if (meta === undefined) return { missing: true };
      for (const prefix of [MEMO, ATTEMPTS, AT]) {
        for (const [k] of this.kv.list({ prefix })) this.kv.delete(k);
      }
      for (const k of [OUTPUT, ERROR, PAUSED_AT]) this.kv.delete(k);
      this.kv.put(META, { ...meta, generation: meta.generation + 1 });
      this.kv.put(STATUS, 'queued');
      await this.ctx.storage.setAlarm(Date.now());
      return {};
    }

    async sendEvent(type, payload) {
      const status = this.kv.get(STATUS);
      if (status === undefined) return { missing: true };
      const seq = (this.kv.get(EVENT_SEQ) || 0) + 1;
      this.kv.put(EVENT_SEQ, seq);
      this.kv.put(EVENT + String(seq).padStart(16, '0'), { type, payload, timestampMs: Date.now() });
      if (this.run !== null) this.eventDuringRun = true;
      if (RULES.runnable(status)) await this.ctx.storage.setAlarm(Date.now());
      return {};
    }

    /** Every wake: run() from the top, until it ends or suspends. Never throws (a failing alarm would be retried). */
    async alarm() {
      const meta = this.kv.get(META);
      if (meta === undefined || !RULES.runnable(this.kv.get(STATUS)) || this.run !== null) return;
      const run = new Run(this, meta.generation);
      this.run = run;
      this.eventDuringRun = false;
      this.kv.put(STATUS, 'running');
      let outcome;
      try {
        const className = (internal.workflowClasses && internal.workflowClasses[meta.workflowName]) || meta.className;
        const Cls = internal.bundleExport(className);
        if (typeof Cls !== 'function') throw new Error(`The Worker exports no class ${className} (workflow ${meta.workflowName})`);
        const target = new Cls(this.ctx, this.env);
        if (typeof target.run !== 'function') throw new Error(`${className} has no run(event, step) method`);
        const event = { payload: meta.params, timestamp: new Date(meta.createdMs), instanceId: meta.id, workflowName: meta.workflowName };
        const step = new WorkflowStep(CREATE, run);
        Promise.resolve(target.run(event, step)).then((v) => run.end({ done: true, value: v }), (e) => run.end({ failed: e }));
        outcome = await run.ended;
      } catch (e) {
        outcome = { failed: e };
      }
      run.over = true;
      this.run = null;
      if (outcome.abandoned || this.kv.get(META).generation !== run.generation || this.kv.get(STATUS) === 'terminated') return;
      run.flush();
      if (outcome.suspended) {
        const next = RULES.afterSuspend(this.kv.get(STATUS), run.suspendAt, run.suspendAt === Infinity);
        this.kv.put(STATUS, next.status);
        if (next.status === 'paused') await this.paused();
        // An event that came while the run was suspending may be what a wait needs: look again at once.
        else await this.ctx.storage.setAlarm(this.eventDuringRun ? Date.now() : next.alarmAt);
        return;
      }
      if (outcome.done) {
        let value = outcome.value === undefined ? null : outcome.value;
        try { value = structuredClone(value); } catch (e) { value = String(value); }
        this.kv.put(OUTPUT, { v: value });
        this.kv.put(STATUS, 'complete');
        return;
      }
      if (outcome.fatal) {
        this.kv.put(ERROR, outcome.fatal);
        this.kv.put(STATUS, 'errored');
        return;
      }
      const e = outcome.failed;
      this.kv.put(ERROR, isNonRetryable(e)
        ? { name: 'WorkflowFatalError', message: 'The execution of the Workflow instance was terminated, as a step threw an NonRetryableError and it was not handled' }
        : errorRecord(acrossRpc(e)));
      this.kv.put(STATUS, 'errored');
    }
  }
  internal.builtinClasses[CELL_CLASS] = WorkflowInstanceCell;

  // ---- the Worker's side ----

  const kBinding = Symbol('Workflow.binding');
  const notFound = () => new Error('instance.not_found');

  class WorkflowInstance {
    #binding;
    constructor(key, binding, id) {
      if (key !== CREATE) throw new TypeError('Illegal constructor');
      this.#binding = binding;
      Object.defineProperty(this, 'id', { value: id, enumerable: true });
    }
    async #call(op, ...args) {
      const answer = await this.#binding.stubOf(this.id)[op](...args);
      if (answer.missing) throw notFound();
      return answer;
    }
    async status() {
      const s = await this.#call('status');
      return { status: s.status, output: s.output, error: s.error };
    }
    async pause() { await this.#call('pause'); }
    async resume() { await this.#call('resume'); }
    async terminate(options) {
      if (options !== undefined && options !== null && options.rollback !== undefined) {
        throw new TypeError('terminate({rollback}) is not supported by cellgate: step rollbacks are not implemented (docs/workflows.md)');
      }
      const a = await this.#call('terminate');
      if (a.finite) throw engineError('WorkflowError', '(instance.cannot_terminate) Cannot terminate instance since its on a finite state');
    }
    async restart(options) {
      if (options !== undefined && options !== null && options.from !== undefined) {
        throw new TypeError('restart({from}) is not supported by cellgate: an instance restarts from its first step (docs/workflows.md)');
      }
      await this.#call('restart');
    }
    async sendEvent(event) {
      if (event === null || typeof event !== 'object' || typeof event.type !== 'string') {
        throw new TypeError('sendEvent() takes {type: string, payload?}');
      }
      await this.#call('sendEvent', event.type, event.payload);
    }
  }

  class Workflow {
    [kBinding];
    constructor(key, binding) {
      if (key !== CREATE) throw new TypeError('Illegal constructor');
      this[kBinding] = binding;
    }
    async create(options) {
      const b = this[kBinding];
      const { id = crypto.randomUUID(), params = {} } = options === undefined || options === null ? {} : options;
      if (!RULES.validInstanceId(id)) throw engineError('WorkflowError', 'Workflow instance has invalid id');
      const answer = await b.stubOf(id).create(b.workflowName, b.className, id, params);
      if (answer.exists) throw engineError('WorkflowError', `Workflow instance with id "${id}" already exists`);
      return new WorkflowInstance(CREATE, b, id);
    }
    async createBatch(batch) {
      if (!Array.isArray(batch)) {
        throw new TypeError('createBatch() takes an array of {id?, params?} (the {count} / {instances} form is not supported by cellgate)');
      }
      if (batch.length === 0) throw new Error('WorkflowError: batchCreate should have at least 1 instance');
      if (batch.length > 100) throw engineError('WorkflowError', 'createBatch() creates at most 100 instances at a time');
      return Promise.all(batch.map((options) => this.create(options)));
    }
    async get(id) {
      const b = this[kBinding];
      if (typeof id !== 'string') throw notFound();
      const answer = await b.stubOf(id).status();
      if (answer.missing) throw notFound();
      return new WorkflowInstance(CREATE, b, id);
    }
  }

  return (target, settings) => {
    internal.workflowHost = target;
    // The class each Workflow of this deployment runs (WorkflowTargets: one per Workflow): an
    // instance created under an older deployment wakes with the current one's class.
    if (internal.workflowClasses === undefined) internal.workflowClasses = Object.create(null);
    internal.workflowClasses[settings.workflow_name] = settings.class_name;
    const colonOf = (scope) => scope.indexOf(':');
    const binding = {
      workflowName: settings.workflow_name,
      className: settings.class_name,
      stubOf(id) {
        const scope = target.scopeOf(id);
        const c = colonOf(scope);
        return internal.newStub(internal.newId(scope.slice(0, c), scope.slice(c + 1), undefined));
      },
    };
    return new Workflow(CREATE, binding);
  };
});
