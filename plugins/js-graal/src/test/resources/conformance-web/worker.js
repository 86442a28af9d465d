// The Web platform conformance fixture (ConformanceWebTest.java): the same bundle runs on workerd
// (miniflare) and on cellgate, and the answers must match case by case. Each case is
// GET/POST /case/<name>; a case answers a Response, or a value sent back as JSON. The origin for
// outbound fetch (EventSource, sendBeacon, uploads) is named by the x-origin request header.
import { formdataCases } from './formdata-cases.js';
import { compressionCases } from './compression-cases.js';
import { streamCases } from './stream-cases.js';
import { urlPatternCases } from './urlpattern-cases.js';
import { globalsCases } from './globals-cases.js';

const cases = { ...formdataCases, ...compressionCases, ...streamCases, ...urlPatternCases, ...globalsCases };

export default {
  async fetch(request) {
    const name = new URL(request.url).pathname.replace(/^\/case\//, '');
    const run = cases[name];
    if (!run) return new Response('no case ' + name, { status: 404 });
    const result = await run(request);
    return result instanceof Response ? result : Response.json(result);
  },
};
