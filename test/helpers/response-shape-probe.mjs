// Preloaded into the headless service (`--import`, through NODE_OPTIONS) by
// test/api/response-shape.test.ts. For every request it notes whether the new
// ServerResponse has V8's fast property layout (%HasFastProperties, as it comes out of
// node:http's constructor) and writes `[shape] <n> fast|dictionary` on stderr. After each of
// the first COUNTERSIGN_TEST_GC_FIRST responses it runs a full garbage collection and
// writes `[shape] gc <n>`, so a test that waits for that line between its requests puts a
// collection at every point where it could spoil V8's decision on the layout.
import http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--allow-natives-syntax');
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const hasFastProperties = new Function('o', 'return %HasFastProperties(o)');
const gcFirst = Number(process.env.COUNTERSIGN_TEST_GC_FIRST ?? 0);

let n = 0;
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, res) {
  if (event === 'request') {
    const i = ++n;
    process.stderr.write(`[shape] ${i} ${hasFastProperties(res) ? 'fast' : 'dictionary'}\n`);
    if (i <= gcFirst)
      res.once('finish', () =>
        setImmediate(() => {
          gc();
          process.stderr.write(`[shape] gc ${i}\n`);
        }),
      );
  }
  return emit.apply(this, arguments);
};
