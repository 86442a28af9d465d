// The HTMLRewriter conformance fixture: the same bundle runs on workerd (miniflare) and on cellgate,
// and EdgeApiConformanceTest compares the answers. GET /case/<name> runs CASES[name]: the input
// is streamed to the rewriter in the listed chunks (strings are UTF-8, arrays are raw bytes), and the
// answer is the rewritten output followed by one JSON line per thing the handlers saw.
import { SELECTOR_CASES } from './selector-cases.js';
import { HANDLER_CASES } from './handler-cases.js';
import { TEXT_CASES } from './text-cases.js';
import { err, html } from './lib.js';

const CASES = { ...SELECTOR_CASES, ...HANDLER_CASES, ...TEXT_CASES };

export default {
  async fetch(request) {
    const name = new URL(request.url).pathname.split('/')[2];
    const c = CASES[name];
    if (c === undefined) return new Response('no case ' + name, { status: 404 });
    const log = [];
    let out;
    try {
      if (typeof c === 'function') {
        out = await c(log);
      } else {
        const [chunks, build] = c;
        out = await build(log).transform(html(chunks)).text();
      }
    } catch (x) {
      out = 'ERR ' + err(x);
    }
    return new Response(out + '\n' + log.map((l) => JSON.stringify(l)).join('\n'));
  },
};
