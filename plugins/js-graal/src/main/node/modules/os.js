// node:os: what a Worker can say about its "machine", the answers workerd gives (no host details leak).
import { invalidArgType } from '../errors.js';

const constants = Object.freeze({
  UV_UDP_REUSEADDR: 4, dlopen: Object.freeze({}), errno: Object.freeze({}), signals: Object.freeze({}), priority: Object.freeze({}),
});
export default {
  EOL: '\n', devNull: '/dev/null', constants,
  availableParallelism: () => 1, arch: () => 'x64', cpus: () => [], endianness: () => 'LE', freemem: () => 0,
  getPriority: () => 0, homedir: () => '/tmp/', hostname: () => 'localhost', loadavg: () => [0, 0, 0], machine: () => 'x86_64',
  networkInterfaces: () => ({}), platform: () => 'linux', release: () => '', tmpdir: () => '/tmp/', totalmem: () => 0,
  type: () => 'Linux', uptime: () => 0, userInfo: () => ({}), version: () => '',
  setPriority(pid, priority) {
    if (typeof pid !== 'number') throw invalidArgType('pid', 'of type number', pid);
    if (priority !== undefined && typeof priority !== 'number') throw invalidArgType('priority', 'of type number', priority);
  },
};
