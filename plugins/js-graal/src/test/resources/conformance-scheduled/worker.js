// What a scheduled() handler sees, recorded for a later fetch: run on workerd (miniflare) and on
// cellgate by ScheduledConformanceTest, which compares the two records.
const seen = [];
let waitedFor = 0;
const describe = (controller, env, ctx, argc) => {
  const proto = Object.getPrototypeOf(controller);
  return {
    argc,
    cron: controller.cron,
    scheduledTime: controller.scheduledTime,
    scheduledTimeType: typeof controller.scheduledTime,
    type: controller.type,
    noRetry: typeof controller.noRetry,
    noRetryReturns: String(controller.noRetry()),
    tag: Object.prototype.toString.call(controller),
    ownKeys: Object.keys(controller),
    protoKeys: proto === null ? null : Object.getOwnPropertyNames(proto).filter((k) => k !== 'constructor').sort(),
    frozenCron: (() => { try { controller.cron = 'x'; } catch (e) { return e.constructor.name; } return controller.cron; })(),
    env: env.GREETING,
    ctxTag: Object.prototype.toString.call(ctx),
    waitUntil: typeof ctx.waitUntil,
    globalClass: typeof globalThis.ScheduledController,
  };
};
export default {
  async scheduled(controller, env, ctx) {
    seen.push(describe(controller, env, ctx, arguments.length));
    if (controller.cron === '59 23 LW * *') throw new Error('scheduled handler failed on purpose');
    // the event ends only when its waitUntil promises settle: the fetch after it must see 1
    ctx.waitUntil(new Promise((r) => setTimeout(r, 30)).then(() => { waitedFor += 1; }));
    await new Promise((r) => setTimeout(r, 5));
  },
  async fetch() {
    return Response.json({ seen, waitedFor });
  },
};
