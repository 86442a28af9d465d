import { DurableObject } from "cloudflare:workers";

export class Timer extends DurableObject {
  async fetch(request) {
    const url = new URL(request.url);
    if (request.method === "POST") {
      const inMs = Number(url.searchParams.get("in") ?? "1000");
      await this.ctx.storage.put("failuresLeft", Number(url.searchParams.get("fail") ?? "0"));
      await this.ctx.storage.setAlarm(Date.now() + inMs);
      return Response.json({ scheduled: await this.ctx.storage.getAlarm() });
    }
    return Response.json({
      runs: (await this.ctx.storage.get("runs")) ?? [],
      alarm: await this.ctx.storage.getAlarm(),
    });
  }

  async alarm(info) {
    const runs = (await this.ctx.storage.get("runs")) ?? [];
    runs.push({ at: Date.now(), retryCount: info?.retryCount ?? 0, isRetry: info?.isRetry ?? false });
    await this.ctx.storage.put("runs", runs);
    const left = (await this.ctx.storage.get("failuresLeft")) ?? 0;
    if (left > 0) {
      await this.ctx.storage.put("failuresLeft", left - 1);
      throw new Error(`planned failure, ${left - 1} left`);
    }
  }
}

export default {
  async fetch(request, env) {
    const m = /^\/(schedule|status)\/([^/]+)$/.exec(new URL(request.url).pathname);
    if (!m) return new Response("try POST /schedule/<name>?in=<ms>&fail=<n> or GET /status/<name>\n", { status: 404 });
    return env.TIMER.getByName(m[2]).fetch(request);
  },
};
